package io.taskq.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.taskq.operations.Pause;
import io.taskq.operations.PauseTarget;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples what an operator paused (A4, {@code taskq.operations().paused()}) into the gauge {@code
 * taskq.paused{kind, name}}: 1 while the queue ({@code kind="queue"}, {@code name="*"} for every
 * queue) or actor ({@code kind="actor"}) is paused, 0 once it was resumed; and keeps the last
 * reading for {@code /ready}. Like {@link QueueSampler} it reads on its own schedule, never on the
 * scrape or probe thread; a failed read counts under {@code
 * taskq.maintenance_leader.sweep_timeouts{sweep_name}} with its own name and the gauges keep their
 * last values. Thread-safe.
 */
public final class PauseSampler {
  private static final Logger LOG = LoggerFactory.getLogger(PauseSampler.class);

  private final String sweepName;
  private final Callable<List<Pause>> source;
  private final MeterRegistry registry;
  private final Counter failedReads;
  private final Map<PauseTarget, AtomicLong> gauges = new ConcurrentHashMap<>();
  private final AtomicReference<@Nullable List<Pause>> last = new AtomicReference<>();

  /**
   * A sampler that has not read yet.
   *
   * @param sweepName the {@code sweep_name} its failed reads count under, e.g. {@code paused}
   * @param source the reading, e.g. {@code taskq.operations()::paused}
   * @param registry the registry its gauges and failure counter are registered in
   * @throws IllegalArgumentException when {@code sweepName} is blank
   */
  public PauseSampler(String sweepName, Callable<List<Pause>> source, MeterRegistry registry) {
    this.sweepName = TaskQMetrics.label(sweepName, "sweepName");
    this.source = Objects.requireNonNull(source, "source");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.failedReads = TaskQMetrics.sweepTimeouts(registry, sweepName);
  }

  /** {@return the {@code sweep_name} failed reads count under} */
  public String sweepName() {
    return sweepName;
  }

  /** {@return the pauses of the last successful reading, or null before the first} */
  public @Nullable List<Pause> last() {
    return last.get();
  }

  /**
   * Reads the pauses once and updates the gauges.
   *
   * @return whether the read succeeded
   */
  public boolean sampleOnce() {
    List<Pause> pauses =
        SamplerRead.read(() -> List.copyOf(source.call()), failedReads, sweepName, LOG);
    if (pauses == null) {
      return false;
    }
    Set<PauseTarget> now = new HashSet<>();
    for (Pause p : pauses) {
      now.add(p.target());
      gauge(p.target()).set(1);
    }
    gauges.forEach(
        (target, value) -> {
          if (!now.contains(target)) {
            value.set(0);
          }
        });
    last.set(pauses);
    return true;
  }

  private AtomicLong gauge(PauseTarget target) {
    return gauges.computeIfAbsent(
        target,
        t -> {
          AtomicLong value = new AtomicLong();
          Gauge.builder(MeterNames.PAUSED, value, AtomicLong::doubleValue)
              .description("1 while an operator's pause of the queue or actor holds, else 0")
              .tags(Tags.of("kind", t.kind().dbValue(), "name", t.name()))
              .strongReference(true)
              .register(registry);
          return value;
        });
  }
}
