package io.taskq.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gauge sampler of O1 (backlog detection, per-actor backlog, reservation slots): reads a source
 * on the observability's own schedule, never on the scrape thread, and sets one gauge per point of
 * the reading. A failed read is a gauge read that did not happen: it counts under {@code
 * taskq.maintenance_leader.sweep_timeouts{sweep_name}} with the sampler's own name (registered at
 * zero when the sampler is built) and the gauges keep their last values; a series missing from a
 * successful read reads 0. A failed read logs its exception's class only (a driver's message may
 * carry a connection string). Thread-safe.
 *
 * @param <R> one row of the reading
 */
final class GaugeSampler<R> {
  private static final Logger LOG = LoggerFactory.getLogger(GaugeSampler.class);

  private record Series(String meter, Tags tags) {}

  private final String sweepName;
  private final Callable<? extends List<R>> source;
  private final Function<R, List<GaugePoint>> points;
  private final MeterRegistry registry;
  private final Counter failedReads;
  private final Map<Series, AtomicLong> gauges = new ConcurrentHashMap<>();

  GaugeSampler(
      String sweepName,
      Callable<? extends List<R>> source,
      Function<R, List<GaugePoint>> points,
      MeterRegistry registry) {
    this.sweepName = TaskQMetrics.label(sweepName, "sweepName");
    this.source = Objects.requireNonNull(source, "source");
    this.points = Objects.requireNonNull(points, "points");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.failedReads = TaskQMetrics.sweepTimeouts(registry, sweepName);
  }

  String sweepName() {
    return sweepName;
  }

  /** Reads once and sets the gauges; false (and one failed read counted) when the read failed. */
  boolean sampleOnce() {
    List<R> rows = SamplerRead.read(() -> List.copyOf(source.call()), failedReads, sweepName, LOG);
    if (rows == null) {
      return false;
    }
    Set<Series> seen = new HashSet<>();
    for (R row : rows) {
      for (GaugePoint p : points.apply(row)) {
        Series series = new Series(p.meter(), p.tags());
        seen.add(series);
        gauge(series, p).set(Double.doubleToLongBits(p.value()));
      }
    }
    gauges.forEach(
        (series, value) -> {
          if (!seen.contains(series)) {
            value.set(Double.doubleToLongBits(0));
          }
        });
    return true;
  }

  private AtomicLong gauge(Series series, GaugePoint p) {
    return gauges.computeIfAbsent(
        series,
        s -> {
          AtomicLong bits = new AtomicLong(Double.doubleToLongBits(0));
          Gauge.Builder<AtomicLong> g =
              Gauge.builder(s.meter(), bits, b -> Double.longBitsToDouble(b.get()))
                  .description(p.description())
                  .tags(s.tags())
                  .strongReference(true);
          if (p.baseUnit() != null) {
            g.baseUnit(p.baseUnit());
          }
          g.register(registry);
          return bits;
        });
  }
}
