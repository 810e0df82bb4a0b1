package io.taskq.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.taskq.TaskQ;
import io.taskq.metrics.QueueReading;
import io.taskq.metrics.QueueSampler;
import io.taskq.operations.QueueBacklog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;

/**
 * The queue gauges ({@code taskq.queue.depth}, {@code taskq.queue.oldest_pending_age}) as a {@link
 * MeterBinder} bean: Boot binds it to the application's registry once; from then on it reads the
 * backlog every {@code taskq.metrics.sample-period} on a daemon thread, until the context closes.
 */
public final class TaskQQueueGauges implements MeterBinder, DisposableBean {
  /** The {@code sweep_name} failed reads count under, as in {@code TaskQObservability}. */
  public static final String SAMPLER_NAME = "queue_depth";

  private final TaskQ taskq;
  private final Duration period;
  private volatile @Nullable ScheduledFuture<?> samples;
  private final ScheduledExecutorService sampling =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread t = new Thread(task, "taskq-queue-gauges");
            t.setDaemon(true);
            return t;
          });

  /**
   * Gauges of {@code taskq}'s queues, read every {@code period}.
   *
   * @param taskq the engine whose queues are read
   * @param period how often they are read
   */
  public TaskQQueueGauges(TaskQ taskq, Duration period) {
    this.taskq = taskq;
    this.period = period;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    QueueSampler sampler = new QueueSampler(SAMPLER_NAME, this::read, registry);
    samples =
        sampling.scheduleWithFixedDelay(
            () -> {
              if (!taskq.isClosed()) {
                sampler.sampleOnce();
              }
            },
            0,
            Math.max(1, period.toMillis()),
            TimeUnit.MILLISECONDS);
  }

  private List<QueueReading> read() throws Exception {
    List<QueueReading> out = new ArrayList<>();
    for (QueueBacklog b : taskq.queueBacklog()) {
      out.add(new QueueReading(b.queue(), b.depth(), b.oldestPendingAge()));
    }
    return out;
  }

  @Override
  public void destroy() {
    ScheduledFuture<?> running = samples;
    if (running != null) {
      running.cancel(false);
    }
    sampling.shutdownNow();
  }
}
