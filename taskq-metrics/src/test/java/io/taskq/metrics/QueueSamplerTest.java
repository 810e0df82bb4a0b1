package io.taskq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class QueueSamplerTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final TaskQMetrics metrics = new TaskQMetrics();
  private final AtomicReference<Collection<QueueReading>> readings =
      new AtomicReference<>(List.of());
  private final AtomicInteger failuresToInject = new AtomicInteger();

  QueueSamplerTest() {
    metrics.bindTo(registry);
  }

  private Collection<QueueReading> read() throws SQLTimeoutException {
    if (failuresToInject.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new SQLTimeoutException("canceling statement due to statement timeout");
    }
    return readings.get();
  }

  private Scrape scrape() {
    return new Scrape(registry.scrape());
  }

  @Test
  void aSuccessfulRead_setsDepthAndOldestPendingAgePerQueue() {
    QueueSampler sampler = metrics.queueSampler("queue_depth", this::read);
    readings.set(
        List.of(
            new QueueReading("default", 12, Duration.ofMillis(3500)),
            new QueueReading("emails", 0, Duration.ZERO)));

    assertThat(sampler.sampleOnce()).isTrue();

    Scrape scrape = scrape();
    assertThat(scrape.value("taskq_queue_depth", "queue=\"default\"")).isEqualTo(12.0);
    assertThat(scrape.value("taskq_queue_oldest_pending_age_seconds", "queue=\"default\""))
        .isEqualTo(3.5);
    assertThat(scrape.value("taskq_queue_depth", "queue=\"emails\"")).isEqualTo(0.0);
  }

  @Test
  @Tag("O1")
  void aFailedRead_countsUnderSweepTimeoutsWithTheSamplersOwnNameAndKeepsTheLastValues() {
    QueueSampler sampler = metrics.queueSampler("queue_depth", this::read);
    readings.set(List.of(new QueueReading("default", 12, Duration.ofSeconds(3))));
    sampler.sampleOnce();
    failuresToInject.set(1);

    assertThat(sampler.sampleOnce()).isFalse();

    Scrape scrape = scrape();
    assertThat(
            scrape.value(
                "taskq_maintenance_leader_sweep_timeouts_total", "sweep_name=\"queue_depth\""))
        .isEqualTo(1.0);
    assertThat(scrape.value("taskq_queue_depth", "queue=\"default\"")).isEqualTo(12.0);
    assertThat(failuresToInject).hasValue(0);
  }

  @Test
  void aQueueMissingFromASuccessfulRead_hasNoPendingJobs() {
    QueueSampler sampler = metrics.queueSampler("queue_depth", this::read);
    readings.set(List.of(new QueueReading("default", 12, Duration.ofSeconds(3))));
    sampler.sampleOnce();
    readings.set(List.of());

    sampler.sampleOnce();

    Scrape scrape = scrape();
    assertThat(scrape.value("taskq_queue_depth", "queue=\"default\"")).isEqualTo(0.0);
    assertThat(scrape.value("taskq_queue_oldest_pending_age_seconds", "queue=\"default\""))
        .isEqualTo(0.0);
  }

  @Test
  void aScheduledSampler_readsOnItsOwnThreadUntilCancelled() {
    QueueSampler sampler = metrics.queueSampler("queue_depth", this::read);
    readings.set(List.of(new QueueReading("default", 5, Duration.ofSeconds(1))));
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    try {
      ScheduledFuture<?> sampling = sampler.schedule(executor, Duration.ofMillis(20));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> Double.valueOf(5.0).equals(scrape().value("taskq_queue_depth")));
      sampling.cancel(false);
      assertThat(sampling.isCancelled()).isTrue();
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void badArguments_areRefusedNamingTheProblem() {
    QueueSampler sampler = metrics.queueSampler("queue_depth", this::read);
    assertThatThrownBy(
            () -> sampler.schedule(Executors.newSingleThreadScheduledExecutor(), Duration.ZERO))
        .hasMessageContaining("period must be positive");
    assertThatThrownBy(() -> metrics.queueSampler(" ", this::read))
        .hasMessageContaining("sweepName must not be blank");
    assertThatThrownBy(() -> new QueueReading("default", -1, Duration.ZERO))
        .hasMessageContaining("depth of queue default must be >= 0, was -1");
    assertThatThrownBy(() -> new QueueReading("default", 1, Duration.ofSeconds(-1)))
        .hasMessageContaining("oldestPendingAge");
    assertThatThrownBy(() -> new QueueReading("", 1, Duration.ZERO))
        .hasMessageContaining("queue must not be blank");
  }
}
