package io.taskq.postgres.internal.maintenance;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.leader.Leadership;
import io.taskq.spi.MaintenanceHealth;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the leader's sweep health to {@code {schema}.sweep_health} (V012, A8, W1): one multi-row
 * upsert at the end of each loop tick, for the sweeps that loop runs, so any process (the CLI, a
 * dashboard that is not the leader) reads what only the leader's memory held before.
 *
 * <p>Cheap and harmless by design: one statement per tick on a pooled connection, bounded by a
 * short query timeout, never on a job's path. A failed write is logged (once at WARN, then at DEBUG
 * until a write succeeds again) and dropped; it never fails a tick.
 */
final class SweepHealthTable {
  private static final Logger LOG = LoggerFactory.getLogger(SweepHealthTable.class);
  static final int MAX_ERROR_CLASS = 200;
  static final int MAX_ERROR_MESSAGE = 300;

  private final DataSource dataSource;
  private final String sql;
  private final int timeoutSeconds;
  private final InstantSource clock;
  private final MaintenanceHealth health;
  private @Nullable String leader;
  private volatile boolean failing;

  /**
   * @param timeout the bound of the one statement
   * @param health the readiness view: the stall verdict and expected period of each sweep
   */
  SweepHealthTable(
      DataSource dataSource,
      SchemaName schema,
      Duration timeout,
      InstantSource clock,
      MaintenanceHealth health) {
    this.dataSource = dataSource;
    this.sql = NamedStatements.load("io/taskq/postgres/sql/sweep_health.sql", schema).get("write");
    this.timeoutSeconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    this.clock = clock;
    this.health = health;
  }

  /** Writes the rows of {@code sweeps}, one loop's, for the leader of {@code term}. */
  void write(Leadership term, List<SweepRunner> sweeps, Duration loopPeriod) {
    if (sweeps.isEmpty()) {
      return;
    }
    SweepHealthColumns columns = columns(sweeps);
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, leader());
      ps.setInt(2, term.backendPid());
      ps.setLong(3, loopPeriod.toMillis());
      columns.bind(c, ps, 4);
      ps.executeUpdate();
      if (failing) {
        failing = false;
        LOG.info("the sweep health of {} sweeps is written again", sweeps.size());
      }
    } catch (SQLException | RuntimeException e) {
      logFailure(e);
    }
  }

  /** The rows of {@code sweeps} as the statement's array binds, with each one's stall verdict. */
  private SweepHealthColumns columns(List<SweepRunner> sweeps) {
    Map<String, MaintenanceHealth.SweepState> states =
        health.report().sweeps().stream()
            .collect(Collectors.toMap(MaintenanceHealth.SweepState::name, s -> s, (a, b) -> a));
    SweepHealthColumns columns = new SweepHealthColumns(sweeps.size());
    Instant now = clock.instant();
    for (int i = 0; i < sweeps.size(); i++) {
      SweepHealthRow row = sweeps.get(i).health();
      MaintenanceHealth.SweepState state = states.get(row.name());
      columns.set(
          i,
          row,
          now,
          state == null ? null : state.stallReason(),
          health.expectedPeriod(row.name()));
    }
    return columns;
  }

  private void logFailure(Exception e) {
    if (!failing) {
      failing = true;
      LOG.warn(
          "could not write the sweep health (sweep_health); the sweeps go on, readers see the"
              + " rows age: {} (SQLSTATE {})",
          errorMessage(e),
          e instanceof SQLException s ? s.getSQLState() : "none");
    } else {
      LOG.debug("could not write the sweep health", e);
    }
  }

  private String leader() {
    String value = leader;
    if (value == null) {
      value = hostName() + ":" + ProcessHandle.current().pid();
      leader = value;
    }
    return value;
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException | SecurityException e) {
      String env = System.getenv("HOSTNAME");
      return env == null || env.isBlank() ? "unknown" : env;
    }
  }

  /**
   * The error class stored for {@code error}: the exception's simple class name, with its SQLSTATE
   * for an {@link SQLException} (the cause's when {@code error} wraps one), at most {@value
   * #MAX_ERROR_CLASS} characters.
   */
  static String errorClass(Throwable error) {
    Throwable root = error;
    if (!(root instanceof SQLException) && root.getCause() instanceof SQLException cause) {
      root = cause;
    }
    String name = root.getClass().getSimpleName();
    if (root instanceof SQLException s && s.getSQLState() != null) {
      name = name + " " + s.getSQLState();
    }
    return bounded(name, MAX_ERROR_CLASS);
  }

  /**
   * The message stored for {@code error}: its first line only (the driver's detail and hint lines
   * may carry row values), at most {@value #MAX_ERROR_MESSAGE} characters.
   */
  static String errorMessage(Throwable error) {
    Throwable root = error;
    if (!(root instanceof SQLException) && root.getCause() instanceof SQLException cause) {
      root = cause;
    }
    String message = root.getMessage();
    if (message == null || message.isBlank()) {
      return root.getClass().getSimpleName();
    }
    int newline = message.indexOf('\n');
    return bounded(
        (newline < 0 ? message : message.substring(0, newline)).strip(), MAX_ERROR_MESSAGE);
  }

  private static String bounded(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
