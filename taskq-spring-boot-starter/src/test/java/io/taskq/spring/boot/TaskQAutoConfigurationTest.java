package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.taskq.Actor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.metrics.TaskQMetrics;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** SB1, SB5: when the starter applies and when it backs off. */
@TaskQTest(poolSize = 8)
@Tag("SB1")
class TaskQAutoConfigurationTest {

  @Test
  void withoutADataSourceNothingIsCreatedAndTheContextStarts() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                TaskQAutoConfiguration.class,
                TaskQMetricsAutoConfiguration.class,
                TaskQHealthAutoConfiguration.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(TaskQ.class);
              assertThat(context).doesNotHaveBean(TaskQConfig.class);
              assertThat(context).doesNotHaveBean(TaskQLifecycle.class);
            });
  }

  @Test
  void onADataSourceTheEngineIsStartedWithTheContextAndStoppedWithIt(TestServices services) {
    TaskQ[] seen = new TaskQ[1];
    Contexts.on(services)
        .withBean("mailer", Actor.class, () -> Contexts.idle("send-mail"))
        .run(
            context -> {
              assertThat(context).hasSingleBean(TaskQ.class).hasSingleBean(TaskQJobs.class);
              TaskQ taskq = context.getBean(TaskQ.class);
              seen[0] = taskq;
              assertThat(taskq.isRunning()).isTrue();
              assertThat(taskq.schema().value()).isEqualTo(services.schema());
              assertThat(context.getBean(TaskQLifecycle.class).state())
                  .isEqualTo(TaskQLifecycle.State.RUNNING);
            });
    assertThat(seen[0].isClosed()).isTrue();
  }

  @Test
  void withoutActorsTheEngineOnlyEnqueues(TestServices services) {
    Contexts.on(services)
        .run(
            context -> {
              assertThat(context.getBean(TaskQLifecycle.class).state())
                  .isEqualTo(TaskQLifecycle.State.PRODUCER_ONLY);
              assertThat(context.getBean(TaskQ.class).isRunning()).isFalse();
            });
  }

  @Test
  @Tag("SB5")
  void propertiesOffMeansNoEngineNoHealthNoMetrics(TestServices services) {
    Contexts.on(services)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues("taskq.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(TaskQ.class);
              assertThat(context).doesNotHaveBean(TaskQJobs.class);
              assertThat(context).doesNotHaveBean(TaskQHealthIndicator.class);
              assertThat(context).doesNotHaveBean(TaskQMetrics.class);
            });
  }

  @Test
  void theApplicationsOwnTaskQBeanWins(TestServices services) {
    TaskQ own =
        TaskQ.builder(services.dataSource())
            .config(TaskQConfig.builder().schemaName(services.schema()).build())
            .maintenance(false)
            .build();
    Contexts.on(services)
        .withBean("ownTaskQ", TaskQ.class, () -> own)
        .run(
            context -> {
              assertThat(context).hasSingleBean(TaskQ.class);
              assertThat(context.getBean(TaskQ.class)).isSameAs(own);
              assertThat(context.getBean(TaskQJobs.class)).isNotNull();
            });
  }

  @Test
  @Tag("SB5")
  void withoutActuatorThereIsNoHealthContributorAndTheContextStarts(TestServices services) {
    Contexts.on(services)
        .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(TaskQ.class);
              assertThat(context).doesNotHaveBean(TaskQHealthIndicator.class);
            });
  }

  @Test
  @Tag("SB5")
  void withActuatorThereIsOneHealthContributor(TestServices services) {
    Contexts.on(services)
        .run(context -> assertThat(context).hasSingleBean(TaskQHealthIndicator.class));
  }

  @Test
  @Tag("SB5")
  void withoutMicrometerThereAreNoMetricsAndTheContextStarts(TestServices services) {
    Contexts.on(services)
        .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(TaskQ.class);
              assertThat(context).doesNotHaveBean("taskQMetrics");
              assertThat(context).doesNotHaveBean(TaskQQueueGauges.class);
            });
  }

  @Test
  @Tag("SB5")
  void withARegistryTheBindingIsABeanBoundOnceAndTheEnginesListener(TestServices services) {
    Contexts.on(services)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean("mailer", Actor.class, () -> Contexts.idle("send-mail"))
        .run(
            context -> {
              assertThat(context).hasSingleBean(TaskQMetrics.class);
              assertThat(context).hasSingleBean(TaskQQueueGauges.class);
            });
  }

  @Test
  @Tag("SB3")
  void twoActorBeansOfOneNameFailStartUpNamingBothBeans(TestServices services) {
    Contexts.on(services)
        .withBean("first", Actor.class, () -> Contexts.idle("send-mail"))
        .withBean("second", Actor.class, () -> Contexts.idle("send-mail"))
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("'first' and 'second' are both named 'send-mail'"));
  }

  @Test
  void lazyInitializationStillStartsTheWorkers(TestServices services) {
    Contexts.on(services)
        .withPropertyValues("spring.main.lazy-initialization=true")
        .withInitializer(
            c ->
                c.addBeanFactoryPostProcessor(
                    new org.springframework.boot.LazyInitializationBeanFactoryPostProcessor()))
        .withBean("mailer", Actor.class, () -> Contexts.idle("send-mail"))
        .run(context -> assertThat(context.getBean(TaskQ.class).isRunning()).isTrue());
  }
}
