package io.taskq.spring.boot;

import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.spi.JobListener;
import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * TaskQ on the application's {@code DataSource} (SB1): the settings ({@link TaskQConfig}, from
 * {@code taskq.*} and {@code TASKQ_*}), the engine ({@link TaskQ}), its {@link TaskQLifecycle} and
 * the transaction-joining {@link TaskQJobs}. Applies when a {@code DataSource} bean exists and
 * {@code taskq.enabled} is not false; every bean backs off when the application declares its own.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
      "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
      "org.springframework.boot.liquibase.autoconfigure.LiquibaseAutoConfiguration"
    })
@ConditionalOnClass({TaskQ.class, DataSource.class})
@ConditionalOnBean(DataSource.class)
@ConditionalOnBooleanProperty(name = "taskq.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TaskQProperties.class)
public final class TaskQAutoConfiguration {
  private static final Logger LOG = LoggerFactory.getLogger(TaskQAutoConfiguration.class);

  /** Created by Spring. */
  public TaskQAutoConfiguration() {}

  /**
   * The settings: {@code taskq.*} properties over {@code TASKQ_*} variables over the defaults, then
   * every {@link TaskQConfigCustomizer}; all checked at once (SB2).
   *
   * @param environment the environment the {@code taskq.*} properties and {@code TASKQ_*} variables
   *     are read from
   * @param customizers the customizers applied, in order, after the properties
   * @return the checked settings
   * @throws io.taskq.TaskQConfigException listing every bad setting, each by the name it was given
   *     under and where
   */
  @Bean
  @ConditionalOnMissingBean
  public TaskQConfig taskQConfig(
      ConfigurableEnvironment environment, ObjectProvider<TaskQConfigCustomizer> customizers) {
    TaskQConfig.Builder builder = SpringSettings.read(environment);
    Duration phase = shutdownPhaseTimeout(environment);
    if (!SpringSettings.isGiven(environment, "TASKQ_SHUTDOWN_GRACE")) {
      builder.shutdownGrace(defaultGrace(phase));
    }
    customizers.orderedStream().forEach(c -> c.customize(builder));
    TaskQConfig config = builder.build();
    if (config.shutdownGrace().compareTo(phase) >= 0) {
      LOG.warn(
          "TaskQ: taskq.shutdown-grace ({}) is not below spring.lifecycle.timeout-per-shutdown-phase"
              + " ({}): Spring may stop waiting before running handlers are released; raise the"
              + " phase timeout a few seconds above the grace",
          config.shutdownGrace(),
          phase);
    }
    return config;
  }

  /**
   * The grace when none is given: 5 seconds below Spring's phase timeout (25 s for Boot's default
   * 30 s), leaving time to hand unfinished jobs back within the phase; never above the catalog's
   * default, and at least 1 second.
   */
  static Duration defaultGrace(Duration phase) {
    Duration grace = phase.minusSeconds(5);
    Duration catalogDefault = Duration.ofSeconds(30);
    if (grace.compareTo(catalogDefault) > 0) {
      return catalogDefault;
    }
    return grace.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : grace;
  }

  private static Duration shutdownPhaseTimeout(ConfigurableEnvironment environment) {
    return Binder.get(environment)
        .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
        .orElse(Duration.ofSeconds(30));
  }

  /**
   * The engine, built but not started (its {@link TaskQLifecycle} starts it once every bean
   * exists), after the database initializers (Flyway, Liquibase, {@code schema.sql}).
   *
   * @param taskqDataSource the data source marked {@link TaskQDataSource}, if any
   * @param dataSources every data source, used when there is exactly one (or a primary one) and
   *     none is marked
   * @param config the settings
   * @param properties the starter's own {@code taskq.*} properties
   * @param maintenanceListener the maintenance listener bean, used when there is exactly one
   * @param jobListener the job listener bean, used when there is exactly one
   * @param customizers the builder customizers, applied in order
   * @return the engine, not started
   */
  @Bean
  @ConditionalOnMissingBean
  @DependsOnDatabaseInitialization
  public TaskQ taskQ(
      @TaskQDataSource ObjectProvider<DataSource> taskqDataSource,
      ObjectProvider<DataSource> dataSources,
      TaskQConfig config,
      TaskQProperties properties,
      ObjectProvider<MaintenanceListener> maintenanceListener,
      ObjectProvider<JobListener> jobListener,
      ObjectProvider<TaskQBuilderCustomizer> customizers) {
    TaskQ.Builder builder =
        TaskQ.builder(TaskQDataSources.pick(taskqDataSource, dataSources))
            .config(config)
            .maintenance(properties.getMaintenance().isEnabled());
    maintenanceListener.ifUnique(builder::listener);
    jobListener.ifUnique(builder::jobListener);
    customizers.orderedStream().forEach(c -> c.customize(builder));
    return builder.build();
  }

  /**
   * Starts the engine with the context and stops it in the shutdown phase (SB1, SB6).
   *
   * @param taskq the engine
   * @param beans the factory whose {@code Actor} beans are registered at start
   * @return the lifecycle
   */
  @Bean
  @ConditionalOnMissingBean
  public TaskQLifecycle taskQLifecycle(TaskQ taskq, ListableBeanFactory beans) {
    return new TaskQLifecycle(taskq, beans);
  }

  /**
   * Enqueues inside the application's transactions (SB4).
   *
   * @param taskq the engine
   * @param taskqDataSource the data source marked {@link TaskQDataSource}, if any
   * @param dataSources every data source, used when none is marked
   * @return the transactional enqueuer on TaskQ's data source
   */
  @Bean
  @ConditionalOnMissingBean
  public TaskQJobs taskQJobs(
      TaskQ taskq,
      @TaskQDataSource ObjectProvider<DataSource> taskqDataSource,
      ObjectProvider<DataSource> dataSources) {
    return new TaskQJobs(taskq, TaskQDataSources.pick(taskqDataSource, dataSources));
  }

  /** Keeps the lifecycle eager under {@code spring.main.lazy-initialization=true}. */
  @Bean
  static LazyInitializationExcludeFilter taskQLazyInitializationExcludeFilter() {
    return LazyInitializationExcludeFilter.forBeanTypes(TaskQLifecycle.class);
  }
}
