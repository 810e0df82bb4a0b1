package io.taskq.spi;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The {@code maintenance} object of the readiness view (O7, guide §3 "What degradation looks
 * like").
 *
 * <p>It listens to the same signals as the metrics ({@link MaintenanceListener}) and answers one
 * question: are this process's sweeps healthy? {@link #report()} says {@code degraded: true}, with
 * one reason per problem, when
 *
 * <ul>
 *   <li>a sweep's last committed batch is older than three cycles of the loop that runs it, or a
 *       sweep has run batches for that long without ever committing one. A cycle is the loop's
 *       period (the sweep interval by default; see {@link #expectPeriod(String, Duration)} for the
 *       1-second loop and the daily sweeps) plus the time the loop spends working in a tick (the
 *       longest of its last {@value #TICKS_REMEMBERED} ticks, see {@link #loopTicked(Collection,
 *       Duration)}), since the next tick starts only when one ends (R4: each loop is judged by its
 *       own cadence);
 *   <li>a sweep runs on the breaker's reduced tier (used batch size below the configured one, T2).
 * </ul>
 *
 * A process that has not completed a sweep and is not degraded (a fresh worker, a follower) says
 * {@code degraded: false} with the informational reason {@value #NO_SWEEP_YET}: it has stalled
 * nothing. Degraded is an operator signal in the body, never a reason to fail the probe.
 *
 * <p>On demotion ({@code leaderChanged(false)}) every stamp is cleared, so a process that lost an
 * ordinary failover does not report a frozen, permanently degraded view. Thread-safe.
 */
public final class MaintenanceHealth implements MaintenanceListener {
  /** The reason a process that never completed a sweep gives. */
  public static final String NO_SWEEP_YET = "no sweep has completed yet";

  /** Periods without a success after which a sweep counts as stalled. */
  public static final int STALL_PERIODS = 3;

  /** How many of a loop's last ticks the longest tick is taken from. */
  public static final int TICKS_REMEMBERED = 8;

  private final Duration sweepInterval;
  private final InstantSource clock;
  private final Map<String, Duration> expectedPeriods = new TreeMap<>();
  private final Map<String, Instant> lastSuccess = new TreeMap<>();
  private final Map<String, Instant> firstBatch = new TreeMap<>();
  private final Map<String, BatchSize> batchSizes = new TreeMap<>();
  private final Map<String, ArrayDeque<Duration>> ticks = new TreeMap<>();

  /**
   * A view with no stamps.
   *
   * @param sweepInterval {@code TASKQ_SWEEP_INTERVAL}: the default expected period, positive
   * @param clock the clock the sweep loop stamps successes with
   * @throws IllegalArgumentException when {@code sweepInterval} is not positive
   */
  public MaintenanceHealth(Duration sweepInterval, InstantSource clock) {
    this.sweepInterval = positive(sweepInterval, "sweepInterval");
    this.clock = clock;
  }

  /**
   * Declares that {@code sweepName} runs every {@code period} rather than every sweep interval (the
   * daily prune), so it is stalled only after three of its own periods.
   *
   * @param sweepName the sweep's {@code sweep_name}
   * @param period how often it runs
   * @throws IllegalArgumentException when {@code period} is not positive
   */
  public synchronized void expectPeriod(String sweepName, Duration period) {
    expectedPeriods.put(sweepName, positive(period, "period"));
  }

  /**
   * Records that one tick of the loop running {@code sweepNames} took {@code took}: from the start
   * of its leadership check to the end of its last sweep. The loop's next tick starts a period
   * after this one ended, so a sweep's successes are a period plus a tick apart when healthy.
   *
   * @param sweepNames the {@code sweep_name}s of the sweeps that loop runs
   * @param took how long the tick ran, not negative
   * @throws IllegalArgumentException when {@code took} is negative
   */
  public synchronized void loopTicked(Collection<String> sweepNames, Duration took) {
    if (took.isNegative()) {
      throw new IllegalArgumentException("took must not be negative, was " + took);
    }
    for (String name : sweepNames) {
      ArrayDeque<Duration> last = ticks.computeIfAbsent(name, n -> new ArrayDeque<>());
      if (last.size() == TICKS_REMEMBERED) {
        last.removeFirst();
      }
      last.addLast(took);
    }
  }

  @Override
  public synchronized void sweepSucceeded(String sweepName, Instant at) {
    lastSuccess.put(sweepName, at);
  }

  @Override
  public synchronized void sweepBatchSize(String sweepName, int used, int configured) {
    batchSizes.put(sweepName, new BatchSize(used, configured));
    firstBatch.putIfAbsent(sweepName, clock.instant());
  }

  @Override
  public void leaderChanged(boolean isLeader) {
    if (!isLeader) {
      clear();
    }
  }

  /** Forgets every stamp (demotion): the view reads as a fresh process's again. */
  public synchronized void clear() {
    lastSuccess.clear();
    firstBatch.clear();
    batchSizes.clear();
    ticks.clear();
  }

  /** {@return the view now} */
  public synchronized Report report() {
    Instant now = clock.instant();
    List<String> reasons = new ArrayList<>();
    List<SweepState> sweeps = new ArrayList<>();
    TreeSet<String> names = new TreeSet<>(firstBatch.keySet());
    names.addAll(lastSuccess.keySet());
    for (String name : names) {
      SweepState state =
          new SweepState(name, lastSuccess.get(name), batchSizes.get(name), stallReason(name, now));
      sweeps.add(state);
      if (state.stallReason() != null) {
        reasons.add(state.stallReason());
      }
      if (state.batchSize() != null && state.batchSize().isReduced()) {
        reasons.add(reducedReason(name, state.batchSize()));
      }
    }
    boolean degraded = !reasons.isEmpty();
    if (!degraded && lastSuccess.isEmpty()) {
      reasons.add(NO_SWEEP_YET);
    }
    return new Report(degraded, reasons, sweeps);
  }

  private @Nullable String stallReason(String name, Instant now) {
    Duration period = expectedPeriod(name);
    Duration tick = longestTick(name);
    Duration limit = period.plus(tick).multipliedBy(STALL_PERIODS);
    Instant success = lastSuccess.get(name);
    Instant since = success != null ? success : firstBatch.get(name);
    if (since == null || Duration.between(since, now).compareTo(limit) <= 0) {
      return null;
    }
    String age = seconds(Duration.between(since, now));
    String bound =
        "more than "
            + STALL_PERIODS
            + " periods of "
            + seconds(period)
            + (tick.isZero() ? "" : " (each plus its loop's " + seconds(tick) + " tick)");
    return success != null
        ? "sweep " + name + " last succeeded " + age + " ago, " + bound
        : "sweep "
            + name
            + " has not committed a batch in the "
            + age
            + " since its first, "
            + bound;
  }

  /**
   * {@return how often {@code sweepName} is expected to succeed when healthy: its declared period,
   * or the sweep interval}
   *
   * @param sweepName the sweep's {@code sweep_name}
   */
  public synchronized Duration expectedPeriod(String sweepName) {
    return expectedPeriods.getOrDefault(sweepName, sweepInterval);
  }

  private Duration longestTick(String name) {
    ArrayDeque<Duration> last = ticks.get(name);
    Duration longest = Duration.ZERO;
    if (last != null) {
      for (Duration d : last) {
        if (d.compareTo(longest) > 0) {
          longest = d;
        }
      }
    }
    return longest;
  }

  private static String reducedReason(String name, BatchSize size) {
    return "sweep "
        + name
        + " is on the reduced tier: batch size "
        + size.used()
        + " of "
        + size.configured()
        + " configured (the breaker latched; restart once the database is healthy)";
  }

  private static String seconds(Duration d) {
    long millis = d.toMillis();
    return millis % 1000 == 0
        ? millis / 1000 + "s"
        : String.format(Locale.ROOT, "%.3fs", millis / 1000.0);
  }

  private static Duration positive(Duration value, String name) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
    return value;
  }

  /**
   * A sweep's used and configured batch size (O2).
   *
   * @param used the batch size the sweep runs with now
   * @param configured the configured batch size
   */
  public record BatchSize(int used, int configured) {
    /** {@return true when the breaker's reduced tier is in force} */
    public boolean isReduced() {
      return used < configured;
    }
  }

  /**
   * One sweep as the view sees it.
   *
   * @param name the sweep name
   * @param lastSuccess when its last batch committed, or null if none has
   * @param batchSize its last reported batch size, or null before its first batch
   * @param stallReason why it counts as stalled, or null when it does not
   */
  public record SweepState(
      String name,
      @Nullable Instant lastSuccess,
      @Nullable BatchSize batchSize,
      @Nullable String stallReason) {}

  /**
   * The view at one instant.
   *
   * @param degraded whether any sweep is stalled or on the reduced tier
   * @param reasons why it is degraded; or {@value #NO_SWEEP_YET} when no sweep has completed yet;
   *     empty when healthy
   * @param sweeps every sweep seen since the last demotion, by name
   */
  public record Report(boolean degraded, List<String> reasons, List<SweepState> sweeps) {
    /**
     * Immutable copies of the lists.
     *
     * @param degraded whether any sweep is stalled or on the reduced tier
     * @param reasons why it is degraded; or {@value #NO_SWEEP_YET} when no sweep has completed yet;
     *     empty when healthy
     * @param sweeps every sweep seen since the last demotion, by name
     */
    public Report {
      reasons = List.copyOf(reasons);
      sweeps = List.copyOf(sweeps);
    }

    /**
     * {@return the report as the {@code maintenance} JSON object of {@code /ready}, for example
     * {@code {"degraded":false,"reasons":["no sweep has completed yet"],"sweeps":{}}}} Each sweep
     * carries {@code last_success} (ISO-8601 or null), {@code batch_size} and {@code
     * batch_size_configured} (or null before its first batch).
     */
    public String toJson() {
      JsonText json = new JsonText();
      json.open('{').key("degraded").bool(degraded).key("reasons").open('[');
      reasons.forEach(json::string);
      json.close(']').key("sweeps").open('{');
      for (SweepState sweep : sweeps) {
        json.key(sweep.name()).open('{').key("last_success");
        json.stringOrNull(sweep.lastSuccess() == null ? null : sweep.lastSuccess().toString());
        BatchSize size = sweep.batchSize();
        json.key("batch_size").numberOrNull(size == null ? null : size.used());
        json.key("batch_size_configured").numberOrNull(size == null ? null : size.configured());
        json.close('}');
      }
      return json.close('}').close('}').toString();
    }
  }
}
