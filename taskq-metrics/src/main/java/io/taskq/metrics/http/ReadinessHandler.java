package io.taskq.metrics.http;

import io.taskq.core.internal.JsonStrings;
import io.taskq.feed.ReclaimFeedLag;
import io.taskq.operations.Pause;
import io.taskq.operations.PauseTarget;
import io.taskq.spi.MaintenanceHealth;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /ready}: the O7 readiness view.
 *
 * <p>The verdict is 503 only while the process is starting or stopping, or when the database check
 * fails; otherwise 200. The {@code maintenance} object ({@link MaintenanceHealth.Report#toJson()})
 * rides in the body either way, and {@code degraded: true} never turns the verdict into a 503: it
 * means "up, but sweeps are unhealthy", an operator signal, and failing the probe for it would pull
 * healthy dispatchers out of service while fixing nothing (guide "What degradation looks like").
 *
 * <p>Body: {@code {"status":"ready"|"not_ready","state":"running","database":"reachable",
 * "maintenance":{...},"event_feed":{...}|null,"paused":{"queues":[...],"actors":[...]}|null}};
 * {@code paused} is the last sampled list of what an operator paused (A4: informational, a paused
 * queue is not a reason to fail the probe); {@code event_feed} is the last sampled lag of the
 * crash-reclaim feed (D12: events held back by a running transaction, and that transaction's age),
 * informational like {@code maintenance}; {@code database} is {@code reachable}, {@code
 * unreachable} or {@code unchecked} (not checked while starting or stopping). A failed check's
 * message is never put in the body or the log (it may carry a connection string); the log names its
 * exception class only.
 */
public final class ReadinessHandler implements EndpointHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ReadinessHandler.class);

  private final Supplier<MaintenanceHealth.Report> health;
  private final Supplier<ProcessState> state;
  private final DatabaseCheck database;
  private final Supplier<@Nullable ReclaimFeedLag> eventFeed;
  private final Supplier<@Nullable List<Pause>> paused;

  /**
   * A handler reading the given view, lifecycle state and database check.
   *
   * @param health the maintenance view TaskQ feeds (also registered as its maintenance listener)
   * @param state the process's lifecycle state now
   * @param database the reachability check; {@link DatabaseCheck#NONE} for none
   */
  public ReadinessHandler(
      MaintenanceHealth health, Supplier<ProcessState> state, DatabaseCheck database) {
    this(Objects.requireNonNull(health, "health")::report, state, database, () -> null);
  }

  /**
   * A handler reading the maintenance report, lifecycle state, database check and the last reading
   * of the reclaim feed's lag (e.g. from a running TaskQ: {@code taskq::health}).
   *
   * @param health the maintenance report now
   * @param state the process's lifecycle state now
   * @param database the reachability check; {@link DatabaseCheck#NONE} for none
   * @param eventFeed the last sampled feed lag, or null when none was sampled (never read on the
   *     probe thread: a sampler reads it, see {@code FeedLagSampler})
   */
  public ReadinessHandler(
      Supplier<MaintenanceHealth.Report> health,
      Supplier<ProcessState> state,
      DatabaseCheck database,
      Supplier<@Nullable ReclaimFeedLag> eventFeed) {
    this(health, state, database, eventFeed, () -> null);
  }

  /**
   * A handler reading the maintenance report, lifecycle state, database check, the last reading of
   * the reclaim feed's lag and the last reading of what an operator paused (A4).
   *
   * @param health the maintenance report now
   * @param state the process's lifecycle state now
   * @param database the reachability check; {@link DatabaseCheck#NONE} for none
   * @param eventFeed the last sampled feed lag, or null when none was sampled
   * @param paused the last sampled pauses ({@code PauseSampler::last}), or null when none was
   *     sampled (never read on the probe thread)
   */
  public ReadinessHandler(
      Supplier<MaintenanceHealth.Report> health,
      Supplier<ProcessState> state,
      DatabaseCheck database,
      Supplier<@Nullable ReclaimFeedLag> eventFeed,
      Supplier<@Nullable List<Pause>> paused) {
    this.health = Objects.requireNonNull(health, "health");
    this.state = Objects.requireNonNull(state, "state");
    this.database = Objects.requireNonNull(database, "database");
    this.eventFeed = Objects.requireNonNull(eventFeed, "eventFeed");
    this.paused = Objects.requireNonNull(paused, "paused");
  }

  @Override
  public HttpReply respond() {
    ProcessState now = state.get();
    String db = now == ProcessState.RUNNING ? ping() : "unchecked";
    boolean ready = now == ProcessState.RUNNING && db.equals("reachable");
    String body =
        "{\"status\":\""
            + (ready ? "ready" : "not_ready")
            + "\",\"state\":\""
            + now.label()
            + "\",\"database\":\""
            + db
            + "\",\"maintenance\":"
            + health.get().toJson()
            + ",\"event_feed\":"
            + eventFeedJson(eventFeed.get())
            + ",\"paused\":"
            + pausedJson(paused.get())
            + "}";
    return new HttpReply(ready ? 200 : 503, HttpReply.JSON, body);
  }

  /**
   * The feed's lag as JSON numbers (an operator signal, never a 503 cause): {@code
   * {"held_back_events":0,"oldest_held_back_event_age_seconds":0.0,
   * "oldest_transaction_age_seconds":0.0,"oldest_transaction_pid":null}}, or {@code null} when not
   * sampled.
   */
  static String eventFeedJson(@Nullable ReclaimFeedLag lag) {
    if (lag == null) {
      return "null";
    }
    Integer pid = lag.oldestTransactionPid();
    return "{\"held_back_events\":"
        + lag.heldBackEvents()
        + ",\"oldest_held_back_event_age_seconds\":"
        + seconds(lag.oldestHeldBackEventAge())
        + ",\"oldest_transaction_age_seconds\":"
        + seconds(lag.oldestTransactionAge())
        + ",\"oldest_transaction_pid\":"
        + (pid == null ? "null" : pid.toString())
        + "}";
  }

  /**
   * What is paused (A4, informational, never a 503 cause): {@code
   * {"queues":["emails"],"actors":[]}} ({@code "*"}: every queue), or {@code null} when not
   * sampled.
   */
  static String pausedJson(@Nullable List<Pause> pauses) {
    if (pauses == null) {
      return "null";
    }
    StringBuilder queues = new StringBuilder();
    StringBuilder actors = new StringBuilder();
    for (Pause p : pauses) {
      StringBuilder list = p.target().kind() == PauseTarget.Kind.QUEUE ? queues : actors;
      if (list.length() > 0) {
        list.append(',');
      }
      JsonStrings.append(list, p.target().name());
    }
    return "{\"queues\":[" + queues + "],\"actors\":[" + actors + "]}";
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.3f", d.toMillis() / 1000.0);
  }

  private String ping() {
    try {
      database.ping();
      return "reachable";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unreachable";
    } catch (Exception e) {
      LOG.warn("Readiness database check failed ({})", e.getClass().getName());
      return "unreachable";
    }
  }
}
