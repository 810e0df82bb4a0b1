package io.taskq.postgres.internal.startup;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException.Problem;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalInt;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the pool TaskQ borrows from is large enough for it (P3).
 *
 * <p>TaskQ <em>holds</em> some connections for good: on the application's DataSource without {@code
 * TASKQ_DATABASE_DIRECT_URL}, the LISTEN connection and (with maintenance on) the leader's lock
 * connection; on its own pool none (those open outside it). Its <em>loops</em> borrow one
 * connection each while a statement runs: claim, complete and heartbeat, plus the maintenance
 * sweeps and the cron loop with maintenance on. So it can use {@code held + loops} at once: 7 on an
 * application DataSource with maintenance on.
 *
 * <ul>
 *   <li>A pool no larger than {@code held} leaves nothing for the loops: claims, completions,
 *       heartbeats and enqueues all time out once TaskQ runs. That is an error.
 *   <li>A pool below {@code held + loops} works, but the loops queue for connections (and the
 *       application's own statements with them): a WARN naming the numbers.
 * </ul>
 *
 * Only a HikariCP pool tells its size; for any other DataSource the check is skipped (DEBUG).
 * Handlers that use the database (their own work, PostgreSQL rate limits, progress) and the
 * application's statements come on top, which is why the messages say "plus what the application
 * uses".
 */
final class PoolBudget {
  private static final Logger LOG = LoggerFactory.getLogger(PoolBudget.class);

  private final boolean owned;
  private final OptionalInt poolSize;
  private final int held;
  private final int loops;
  private final String loopNames;

  private PoolBudget(boolean owned, OptionalInt poolSize, int held, boolean maintenance) {
    this.owned = owned;
    this.poolSize = poolSize;
    this.held = held;
    this.loops = maintenance ? 6 : 3;
    this.loopNames =
        maintenance
            ? "claim, complete, heartbeat, two maintenance, cron"
            : "claim, complete, heartbeat";
  }

  static PoolBudget of(TaskQConfig config, @Nullable DataSource given, boolean maintenance) {
    if (given == null) {
      return new PoolBudget(true, OptionalInt.of(config.databasePoolSize()), 0, maintenance);
    }
    int held = config.databaseDirectUrl().isPresent() ? 0 : (maintenance ? 2 : 1);
    return new PoolBudget(false, hikariSize(given), held, maintenance);
  }

  /** The connections TaskQ can use at once. */
  int need() {
    return held + loops;
  }

  /** The problem when the pool starves TaskQ; logs a WARN when it merely slows it down. */
  List<Problem> check() {
    if (poolSize.isEmpty()) {
      LOG.debug("the application's DataSource is not a HikariCP pool: its size is not checked");
      return List.of();
    }
    int size = poolSize.getAsInt();
    if (!owned && size <= held) {
      return List.of(new Problem(List.of("TASKQ_DATABASE_DIRECT_URL"), starved(size)));
    }
    if (size < need()) {
      LOG.warn("{}", small(size));
    }
    return List.of();
  }

  private String starved(int size) {
    return "the application's DataSource is a pool of at most "
        + size
        + " connections and TaskQ holds "
        + held
        + " of them for good ("
        + heldNames()
        + "), so none are left for its "
        + loopNames
        + " loops, which would all time out: give the pool at least "
        + need()
        + " connections ("
        + held
        + " held + "
        + loops
        + " for the loops) plus what the application uses, or set TASKQ_DATABASE_DIRECT_URL so"
        + " the held ones open outside the pool";
  }

  private String small(int size) {
    String pool =
        owned
            ? "TASKQ_DATABASE_POOL_SIZE=" + size + " is"
            : "the application's DataSource is a pool of at most " + size + " connections,";
    return pool
        + " below the "
        + need()
        + " TaskQ can use at once ("
        + (held > 0 ? held + " held for good: " + heldNames() + "; " : "")
        + loops
        + " for its "
        + loopNames
        + " loops): they will queue for connections, and the application's statements with"
        + " them. Give it at least "
        + need()
        + (owned ? "" : " plus what the application uses");
  }

  private String heldNames() {
    return held == 2
        ? "the LISTEN connection and the leader's lock connection"
        : "the LISTEN connection";
  }

  private static OptionalInt hikariSize(DataSource dataSource) {
    try {
      if (dataSource instanceof HikariDataSource hikari) {
        return OptionalInt.of(hikari.getMaximumPoolSize());
      }
      if (dataSource.isWrapperFor(HikariDataSource.class)) {
        return OptionalInt.of(dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize());
      }
    } catch (SQLException | RuntimeException e) {
      LOG.debug("cannot tell the size of the application's pool: {}", e.toString());
    }
    return OptionalInt.empty();
  }
}
