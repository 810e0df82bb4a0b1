package io.taskq.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.taskq.spi.JobListener;
import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The Micrometer binding of TaskQ's signals: every meter the guide names, spelled exactly (see
 * {@link MeterNames} and {@code docs/observability.md}).
 *
 * <p>Bind it to the application's registry ({@code metrics.bindTo(registry)}; never the global
 * one), then hand it to TaskQ as its {@link MaintenanceListener} and {@link JobListener}. Signals
 * that arrive before {@link #bindTo} are dropped, except the gauges' state, which is registered on
 * binding. One instance binds to one registry; use a composite registry to publish to several.
 *
 * <p><b>Label discipline.</b> Tags are bounded: {@code actor}, {@code queue}, {@code sweep_name},
 * {@code disposition}, {@code outcome}, and {@code kind}/{@code name} of a paused target or a
 * concurrency cap. A job or worker id never becomes a tag (the SPI never passes one). A reclaim
 * disposition outside {@code repended}, {@code crashed}, {@code cancelled} is recorded as {@code
 * unknown}, so a future status cannot grow the label set.
 *
 * <p><b>Demotion.</b> {@code leaderChanged(false)} removes the per-sweep gauges (batch sizes, last
 * success), mirroring {@code MaintenanceHealth} clearing its stamps: a follower exports no frozen
 * last-success timestamp that would page as a stalled sweep after an ordinary failover. Counters
 * and distributions stay; they are cumulative.
 *
 * <p>Thread-safe: sweeps, the one-second loop, workers and enqueuers call it concurrently.
 */
public final class TaskQMetrics implements MeterBinder, MaintenanceListener, JobListener {
  private static final Set<String> DISPOSITIONS = Set.of("repended", "crashed", "cancelled");
  private static final List<String> ALL_DISPOSITIONS =
      List.of("repended", "crashed", "cancelled", "unknown");

  private final AtomicReference<@Nullable MeterRegistry> bound = new AtomicReference<>();
  private final AtomicInteger leader = new AtomicInteger();
  private final AtomicLong feedLagMillis = new AtomicLong();
  private final Map<String, SweepGauges> sweeps = new ConcurrentHashMap<>();
  private final Set<String> knownSweeps = ConcurrentHashMap.newKeySet();
  private final Set<String> knownActors = ConcurrentHashMap.newKeySet();
  private volatile @Nullable BooleanSupplier leaderProbe;

  /** A binding with no registry yet. */
  public TaskQMetrics() {}

  /**
   * Registers the always-present meters ({@code is_leader}, the leader-change counter, the feed-lag
   * gauge, the fenced-write counter), the zero-valued counters of every sweep and actor known from
   * {@link #maintenanceStarted} (R6), and the gauges of every sweep seen so far.
   *
   * @throws IllegalStateException when this instance is already bound to a registry
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    if (!bound.compareAndSet(null, registry)) {
      throw new IllegalStateException(
          "TaskQMetrics is already bound to a registry; create one instance per registry, "
              + "or bind it to a CompositeMeterRegistry");
    }
    Gauge.builder(MeterNames.IS_LEADER, this, TaskQMetrics::isLeaderValue)
        .description("1 while this process is its schema's maintenance leader, else 0")
        .strongReference(true)
        .register(registry);
    leaderChanges(registry);
    Gauge.builder(MeterNames.EVENT_FEED_LAG, feedLagMillis, a -> a.get() / 1000.0)
        .description("Age of the newest event the reclaim-event feed's last poll delivered")
        .baseUnit("seconds")
        .strongReference(true)
        .register(registry);
    fencedWrites(registry);
    registerKnown(registry);
    sweeps.values().forEach(s -> s.registerSeen(registry));
  }

  /**
   * Makes the {@code is_leader} gauge read {@code isLeader} at every scrape instead of the last
   * {@code leaderChanged} signal: leadership as the process proves it now (R6), so a leader whose
   * proof lapsed reads 0 at once, before its next check signals the change. {@link
   * TaskQObservability#attach} passes {@code taskq::isLeader}. It must not block (the root's does
   * not: it reads a volatile state).
   *
   * @param isLeader whether this process is the proven maintenance leader now
   */
  public void leaderProbe(BooleanSupplier isLeader) {
    this.leaderProbe = Objects.requireNonNull(isLeader, "isLeader");
  }

  private double isLeaderValue() {
    BooleanSupplier probe = leaderProbe;
    if (probe == null) {
      return leader.get();
    }
    try {
      return probe.getAsBoolean() ? 1 : 0;
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /**
   * Binds to {@code registry} unless already bound to it.
   *
   * @throws IllegalArgumentException when bound to another registry
   */
  void bindOnce(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    MeterRegistry current = bound.get();
    if (current == null) {
      bindTo(registry);
    } else if (current != registry) {
      throw new IllegalArgumentException(
          "TaskQMetrics is bound to another registry; attach it with the registry it is bound to");
    }
  }

  /**
   * A gauge sampler for queue depth and oldest-pending age, registered in this binding's registry.
   *
   * @param source where the readings come from
   * @return a new sampler, not yet scheduled
   * @param sweepName the {@code sweep_name} its failed reads count under, e.g. {@code queue_depth}
   * @throws IllegalStateException when this binding is not bound yet
   */
  public QueueSampler queueSampler(String sweepName, QueueReadings source) {
    MeterRegistry registry = bound.get();
    if (registry == null) {
      throw new IllegalStateException("bind TaskQMetrics to a registry before creating a sampler");
    }
    return new QueueSampler(sweepName, source, registry);
  }

  // ---- MaintenanceListener (O1-O6) ----

  /**
   * Registers {@code taskq.maintenance_leader.sweep_timeouts{sweep_name}} for every sweep name and
   * {@code taskq.jobs.reclaimed{actor, disposition}} for every actor and disposition at zero (R6),
   * now when bound, else on binding: their series exist before their first event.
   */
  @Override
  public void maintenanceStarted(Set<String> sweepNames, Set<String> actors) {
    knownSweeps.addAll(sweepNames);
    knownActors.addAll(actors);
    withRegistry(this::registerKnown);
  }

  @Override
  public void sweepRows(String sweepName, int rows) {
    withRegistry(
        r ->
            DistributionSummary.builder(MeterNames.SWEEP_ROWS)
                .description("Rows a committed sweep batch acted on; aborted batches record none")
                .tags("sweep_name", sweepName)
                .register(r)
                .record(rows));
  }

  @Override
  public void sweepDuration(String sweepName, Duration duration, boolean aborted) {
    withRegistry(
        r ->
            Timer.builder(MeterNames.SWEEP_DURATION)
                .description("Duration of a sweep batch, committed or aborted by its timeout")
                .tags("sweep_name", sweepName, "outcome", aborted ? "aborted" : "committed")
                .register(r)
                .record(duration));
  }

  @Override
  public void sweepTimeout(String sweepName) {
    withRegistry(r -> sweepTimeouts(r, sweepName).increment());
  }

  @Override
  public void sweepBatchSize(String sweepName, int used, int configured) {
    sweep(sweepName).batchSize(bound.get(), used, configured);
  }

  @Override
  public void sweepSucceeded(String sweepName, Instant at) {
    sweep(sweepName).succeeded(bound.get(), at);
  }

  @Override
  public void leaderChanged(boolean isLeader) {
    int previous = leader.getAndSet(isLeader ? 1 : 0);
    if (previous != leader.get()) {
      withRegistry(r -> leaderChanges(r).increment());
    }
    if (!isLeader) {
      forgetSweeps();
    }
  }

  @Override
  public void jobsReclaimed(String actor, String disposition, long count) {
    String tag = DISPOSITIONS.contains(disposition) ? disposition : "unknown";
    withRegistry(r -> reclaimed(r, actor, tag).increment((double) count));
  }

  // ---- JobListener ----

  @Override
  public void jobsEnqueued(String actor, String queue, int count) {
    withRegistry(r -> jobCounter(r, MeterNames.JOBS_ENQUEUED, actor, queue).increment(count));
  }

  @Override
  public void jobStarted(String actor, String queue, Duration pickupLatency) {
    withRegistry(
        r -> {
          jobCounter(r, MeterNames.JOBS_STARTED, actor, queue).increment();
          Timer.builder(MeterNames.JOBS_PICKUP_LATENCY)
              .description("Time from a job becoming runnable to a worker claiming it")
              .tags("actor", actor, "queue", queue)
              .register(r)
              .record(pickupLatency);
        });
  }

  @Override
  public void jobSucceeded(String actor, String queue, Duration execution) {
    finished(MeterNames.JOBS_SUCCEEDED, "succeeded", actor, queue, execution);
  }

  @Override
  public void jobFailed(String actor, String queue, Duration execution) {
    finished(MeterNames.JOBS_FAILED, "failed", actor, queue, execution);
  }

  @Override
  public void jobRateLimited(String actor, String queue) {
    withRegistry(
        r ->
            Counter.builder(MeterNames.JOBS_RATE_LIMITED)
                .description("Claimed jobs handed back to wait by their actor's rate limit")
                .tags("actor", actor, "queue", queue)
                .register(r)
                .increment());
  }

  @Override
  public void writeFenced() {
    withRegistry(r -> fencedWrites(r).increment());
  }

  @Override
  public void eventFeedLag(Duration lag) {
    feedLagMillis.set(Math.max(0, lag.toMillis()));
  }

  // ---- internals ----

  private void finished(
      String counter, String outcome, String actor, String queue, Duration execution) {
    withRegistry(
        r -> {
          jobCounter(r, counter, actor, queue).increment();
          Timer.builder(MeterNames.JOBS_EXECUTION)
              .description("How long job executions ran, by outcome")
              .tags("actor", actor, "queue", queue, "outcome", outcome)
              .register(r)
              .record(execution);
        });
  }

  private static Counter jobCounter(MeterRegistry r, String name, String actor, String queue) {
    return Counter.builder(name).tags("actor", actor, "queue", queue).register(r);
  }

  static Counter sweepTimeouts(MeterRegistry r, String sweepName) {
    return Counter.builder(MeterNames.SWEEP_TIMEOUTS)
        .description("Sweep batches aborted by their timeout, and gauge reads that failed")
        .tags("sweep_name", sweepName)
        .register(r);
  }

  private void registerKnown(MeterRegistry r) {
    knownSweeps.forEach(name -> sweepTimeouts(r, name));
    for (String actor : knownActors) {
      ALL_DISPOSITIONS.forEach(d -> reclaimed(r, actor, d));
    }
  }

  private static Counter reclaimed(MeterRegistry r, String actor, String disposition) {
    return Counter.builder(MeterNames.JOBS_RECLAIMED)
        .description("Jobs the lease-reclaim sweep reclaimed, by actor and disposition")
        .tags("actor", actor, "disposition", disposition)
        .register(r);
  }

  private static Counter fencedWrites(MeterRegistry r) {
    return Counter.builder(MeterNames.JOBS_FENCED_WRITES)
        .description("Worker writes about an attempt that the lease fence turned away")
        .register(r);
  }

  private static Counter leaderChanges(MeterRegistry r) {
    return Counter.builder(MeterNames.LEADER_CHANGES)
        .description("Times this process gained or lost the maintenance leadership")
        .register(r);
  }

  private SweepGauges sweep(String sweepName) {
    return sweeps.computeIfAbsent(sweepName, SweepGauges::new);
  }

  private void forgetSweeps() {
    List<SweepGauges> gone = List.copyOf(sweeps.values());
    sweeps.clear();
    withRegistry(r -> gone.forEach(g -> g.remove(r)));
  }

  private void withRegistry(Consumer<MeterRegistry> action) {
    MeterRegistry registry = bound.get();
    if (registry != null) {
      action.accept(registry);
    }
  }

  static String label(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }

  /**
   * One sweep's gauge state (O2, O3), strongly held so its gauges never read NaN. Each pair of
   * gauges is registered on its first signal, so a sweep that never reports a batch size (one not
   * wrapped by the breaker) exports no misleading zero, and a sweep that never committed exports no
   * last-success timestamp.
   */
  private static final class SweepGauges {
    private final String sweepName;
    private final AtomicInteger used = new AtomicInteger();
    private final AtomicInteger configured = new AtomicInteger();
    private final AtomicLong lastSuccessMillis = new AtomicLong();
    private final AtomicBoolean sizeSeen = new AtomicBoolean();
    private final AtomicBoolean successSeen = new AtomicBoolean();
    private final List<Meter> meters = new CopyOnWriteArrayList<>();

    SweepGauges(String sweepName) {
      this.sweepName = sweepName;
    }

    void batchSize(@Nullable MeterRegistry r, int usedNow, int configuredNow) {
      used.set(usedNow);
      configured.set(configuredNow);
      if (!sizeSeen.getAndSet(true) && r != null) {
        registerSizes(r);
      }
    }

    void succeeded(@Nullable MeterRegistry r, Instant at) {
      lastSuccessMillis.set(at.toEpochMilli());
      if (!successSeen.getAndSet(true) && r != null) {
        registerLastSuccess(r);
      }
    }

    void registerSeen(MeterRegistry r) {
      if (sizeSeen.get()) {
        registerSizes(r);
      }
      if (successSeen.get()) {
        registerLastSuccess(r);
      }
    }

    private void registerSizes(MeterRegistry r) {
      meters.add(
          Gauge.builder(MeterNames.SWEEP_BATCH_SIZE, used, AtomicInteger::doubleValue)
              .description("The batch size the sweep runs with now")
              .tags(tags())
              .strongReference(true)
              .register(r));
      meters.add(
          Gauge.builder(
                  MeterNames.SWEEP_BATCH_SIZE_CONFIGURED, configured, AtomicInteger::doubleValue)
              .description("The configured batch size; used below configured is the reduced tier")
              .tags(tags())
              .strongReference(true)
              .register(r));
    }

    private void registerLastSuccess(MeterRegistry r) {
      meters.add(
          Gauge.builder(
                  MeterNames.SWEEP_LAST_SUCCESS_SECONDS, lastSuccessMillis, a -> a.get() / 1000.0)
              .description("Epoch seconds of the sweep's last committed batch")
              .tags(tags())
              .strongReference(true)
              .register(r));
    }

    private Tags tags() {
      return Tags.of("sweep_name", sweepName);
    }

    void remove(MeterRegistry r) {
      meters.forEach(r::remove);
    }
  }
}
