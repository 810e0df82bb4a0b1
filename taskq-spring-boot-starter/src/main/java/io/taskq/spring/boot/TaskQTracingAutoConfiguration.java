package io.taskq.spring.boot;

import io.opentelemetry.api.OpenTelemetry;
import io.taskq.TaskQ;
import io.taskq.opentelemetry.TaskQTracing;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * OpenTelemetry tracing of TaskQ jobs (P6) with the application's own {@link OpenTelemetry}: when
 * {@code taskq-opentelemetry} is on the class path and the context has an {@code OpenTelemetry}
 * bean (Spring Boot's OpenTelemetry SDK auto-configuration, the OpenTelemetry Spring Boot starter,
 * or the application's), a {@link TaskQTracing} bean and a {@link TaskQBuilderCustomizer} that
 * registers its enqueue and job interceptors on the engine, first, so that the job interceptor is
 * outermost. Off with {@code taskq.tracing.enabled=false} (or {@code taskq.enabled=false}); an
 * application's own {@code TaskQTracing} bean is used instead of the starter's. An application that
 * declares its own {@link TaskQ} bean registers the interceptors itself.
 */
@AutoConfiguration(
    before = TaskQAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
      "io.opentelemetry.instrumentation.spring.autoconfigure.OpenTelemetryAutoConfiguration"
    })
@ConditionalOnClass({TaskQ.class, TaskQTracing.class, OpenTelemetry.class})
@ConditionalOnBean(OpenTelemetry.class)
@ConditionalOnBooleanProperty(name = "taskq.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "taskq.tracing.enabled", matchIfMissing = true)
public final class TaskQTracingAutoConfiguration {
  /** Created by Spring. */
  public TaskQTracingAutoConfiguration() {}

  /**
   * {@return tracing through the application's OpenTelemetry}
   *
   * @param openTelemetry the application's OpenTelemetry
   */
  @Bean
  @ConditionalOnMissingBean
  public TaskQTracing taskQTracing(OpenTelemetry openTelemetry) {
    return TaskQTracing.create(openTelemetry);
  }

  /**
   * {@return the customizer that registers the tracing interceptors on the engine, before any other
   * customizer's}
   *
   * @param tracing the tracing whose interceptors are registered
   */
  @Bean
  @Order(Ordered.HIGHEST_PRECEDENCE)
  public TaskQBuilderCustomizer taskQTracingCustomizer(TaskQTracing tracing) {
    return builder ->
        builder.interceptEnqueue(tracing.enqueueInterceptor()).intercept(tracing.jobInterceptor());
  }
}
