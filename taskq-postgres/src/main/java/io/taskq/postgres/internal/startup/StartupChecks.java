package io.taskq.postgres.internal.startup;

import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What TaskQ checks and logs once, when it starts, before it opens a connection (P3, P4).
 *
 * <p>Every check that finds a setting TaskQ cannot work with adds a problem; all of them are thrown
 * together in one {@link TaskQConfigException}, so one failed start shows everything to fix. A
 * setting that works but poorly is a WARN. Then the effective configuration is logged at INFO. The
 * unreachable-database check lives where the pool is opened ({@link UnreachableDatabase}), since
 * every path that needs the database goes through it.
 */
public final class StartupChecks {
  private static final Logger LOG = LoggerFactory.getLogger(StartupChecks.class);

  private StartupChecks() {}

  /**
   * Runs every check, then logs the configuration.
   *
   * @param given the application's DataSource, or null when TaskQ opens its own pool
   * @param maintenance whether this process campaigns for maintenance leadership (and runs cron)
   * @throws TaskQConfigException listing every setting TaskQ cannot start with
   */
  public static void run(TaskQConfig config, @Nullable DataSource given, boolean maintenance) {
    List<TaskQConfigException.Problem> problems = new ArrayList<>();
    problems.addAll(AbsentModules.check(config, AbsentModules::onClassPath));
    problems.addAll(PoolBudget.of(config, given, maintenance).check());
    if (!problems.isEmpty()) {
      throw new TaskQConfigException(problems);
    }
    LOG.info("{}", ConfigurationLog.describe(config));
  }
}
