package io.taskq.metrics;

import com.sun.net.httpserver.HttpHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.taskq.TaskQ;
import io.taskq.metrics.http.DatabaseCheck;
import io.taskq.metrics.http.EndpointExtension;
import io.taskq.metrics.http.EndpointHandler;
import io.taskq.metrics.http.HttpEndpoint;
import io.taskq.metrics.http.LivenessHandler;
import io.taskq.metrics.http.MetricsHandler;
import io.taskq.metrics.http.ProcessState;
import io.taskq.metrics.http.ReadinessHandler;
import io.taskq.operations.ActorBacklog;
import io.taskq.operations.BoundedCount;
import io.taskq.operations.Operations;
import io.taskq.operations.QueueBacklog;
import io.taskq.operations.ReservationSlots;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Wires the metrics binding, the gauge samplers and the HTTP endpoint (D15) to one {@link TaskQ}.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * TaskQMetrics metrics = new TaskQMetrics();
 * TaskQ taskq = TaskQObservability.listen(TaskQ.builder(dataSource), metrics).build();
 * try (TaskQObservability observability = TaskQObservability.attach(taskq, metrics, registry)) {
 *   taskq.register(...);
 *   taskq.start();
 *   ...
 * }
 * }</pre>
 *
 * <p>{@link #attach} binds {@code metrics} to {@code registry} (unless it is bound to it already),
 * samples the queue backlog ({@code taskq.queue.depth}, {@code taskq.queue.oldest_pending_age}) and
 * the reclaim feed's lag (D12) on a daemon thread of its own every sample period while the TaskQ
 * runs, and builds the {@code /live}, {@code /ready} and {@code /metrics} handlers: readiness from
 * the TaskQ's lifecycle, {@link TaskQ#health()}, a 2-second database check and the last feed-lag
 * reading. When {@code TASKQ_HTTP_PORT} is set (it is 0, off, by default) it also serves them on
 * {@code TASKQ_HTTP_BIND} (default {@code 127.0.0.1}), with the contexts of every {@link
 * EndpointExtension} on the class path beside them (the web dashboard, when {@code
 * TASKQ_HTTP_DASHBOARD=true}); {@link #routes()} are plain objects to mount in the application's
 * own server instead. {@link #close()} stops the sampling and the endpoint, never the TaskQ or the
 * registry.
 */
public final class TaskQObservability implements AutoCloseable {
  /** The default period of the gauge samplers. */
  public static final Duration DEFAULT_SAMPLE_PERIOD = Duration.ofSeconds(15);

  /** The {@code sweep_name} the queue sampler's failed reads count under. */
  public static final String QUEUE_SAMPLER = "queue_depth";

  /** The {@code sweep_name} the feed-lag sampler's failed reads count under. */
  public static final String FEED_LAG_SAMPLER = "event_feed_lag";

  /** The {@code sweep_name} failed reads of the pauses count under. */
  public static final String PAUSE_SAMPLER = "paused";

  /** The {@code sweep_name} the backlog-detection sampler's failed reads count under (O1). */
  public static final String BACKLOG_SAMPLER = "backlog_detection";

  /** The {@code sweep_name} the per-actor backlog sampler's failed reads count under (O1). */
  public static final String ACTOR_BACKLOG_SAMPLER = "actor_backlog";

  /** The {@code sweep_name} the reservation-slot sampler's failed reads count under (O1). */
  public static final String RESERVATION_SLOTS_SAMPLER = "reservation_slots";

  /** How long {@code /ready}'s database check may take. */
  public static final Duration DATABASE_CHECK_TIMEOUT = Duration.ofSeconds(2);

  private final QueueSampler queueSampler;
  private final FeedLagSampler feedLagSampler;
  private final Map<String, EndpointHandler> routes;
  private final ScheduledExecutorService sampling;
  private final ScheduledFuture<?> samples;
  private final @Nullable HttpEndpoint endpoint;

  private TaskQObservability(
      QueueSampler queueSampler,
      FeedLagSampler feedLagSampler,
      Map<String, EndpointHandler> routes,
      ScheduledExecutorService sampling,
      ScheduledFuture<?> samples,
      @Nullable HttpEndpoint endpoint) {
    this.queueSampler = queueSampler;
    this.feedLagSampler = feedLagSampler;
    this.routes = routes;
    this.sampling = sampling;
    this.samples = samples;
    this.endpoint = endpoint;
  }

  /**
   * Makes {@code metrics} the builder's maintenance listener and job listener.
   *
   * @param builder the TaskQ builder to listen to
   * @param metrics the metrics binding to install as its listeners
   * @return {@code builder}
   */
  public static TaskQ.Builder listen(TaskQ.Builder builder, TaskQMetrics metrics) {
    Objects.requireNonNull(metrics, "metrics");
    return builder.listener(metrics).jobListener(metrics);
  }

  /**
   * Attaches with the {@linkplain #DEFAULT_SAMPLE_PERIOD default sample period}; see {@link
   * #attach(TaskQ, TaskQMetrics, PrometheusMeterRegistry, Duration)}.
   *
   * @param taskq the TaskQ to observe
   * @param metrics the binding installed by {@link #listen}, bound to {@code registry} here
   * @param registry the registry the meters are registered in and {@code /metrics} scrapes
   * @return the running observability; close it to stop the samplers and the endpoint
   */
  public static TaskQObservability attach(
      TaskQ taskq, TaskQMetrics metrics, PrometheusMeterRegistry registry) {
    return attach(taskq, metrics, registry, DEFAULT_SAMPLE_PERIOD);
  }

  /**
   * Binds {@code metrics} to {@code registry}, starts the samplers and, when configured, the
   * endpoint. {@code metrics} should be the TaskQ's listeners ({@link #listen}); otherwise the
   * lifecycle and sweep meters stay empty.
   *
   * @param taskq the TaskQ to observe
   * @param metrics the binding installed by {@link #listen}, bound to {@code registry} here
   * @param registry the registry the meters are registered in and {@code /metrics} scrapes
   * @return the running observability; close it to stop the samplers and the endpoint
   * @param samplePeriod how often the samplers read, positive
   * @throws IllegalArgumentException when {@code metrics} is bound to another registry, the period
   *     is not positive, or the configured bind address is not an address of this host
   * @throws java.io.UncheckedIOException when the configured port cannot be bound
   */
  public static TaskQObservability attach(
      TaskQ taskq, TaskQMetrics metrics, PrometheusMeterRegistry registry, Duration samplePeriod) {
    Objects.requireNonNull(taskq, "taskq");
    Objects.requireNonNull(registry, "registry");
    if (samplePeriod.isNegative() || samplePeriod.isZero()) {
      throw new IllegalArgumentException("samplePeriod must be positive, was " + samplePeriod);
    }
    metrics.bindOnce(registry);
    metrics.leaderProbe(taskq::isLeader);
    QueueSampler queues = metrics.queueSampler(QUEUE_SAMPLER, () -> readings(taskq));
    FeedLagSampler feedLag =
        new FeedLagSampler(FEED_LAG_SAMPLER, () -> taskq.reclaimEvents().lag(), registry);
    PauseSampler paused =
        new PauseSampler(PAUSE_SAMPLER, () -> taskq.operations().paused(), registry);
    List<GaugeSampler<?>> o1 =
        List.of(
            backlogSampler(
                () -> List.copyOf(taskq.operations().sweepBacklog().entrySet()), registry),
            actorBacklogSampler(() -> taskq.operations().actorBacklog(), registry),
            reservationSlotSampler(() -> taskq.operations().reservationSlots(), registry));
    ReadinessHandler ready =
        new ReadinessHandler(
            taskq::health, () -> state(taskq), databaseCheck(taskq), feedLag::last, paused::last);
    Map<String, EndpointHandler> routes =
        Collections.unmodifiableMap(
            HttpEndpoint.standardRoutes(
                new LivenessHandler(), ready, new MetricsHandler(registry)));
    ScheduledExecutorService sampling =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread t = new Thread(task, "taskq-metrics-sampler");
              t.setDaemon(true);
              return t;
            });
    long millis = samplePeriod.toMillis();
    ScheduledFuture<?> samples =
        sampling.scheduleWithFixedDelay(
            () -> {
              if (taskq.isRunning()) {
                queues.sampleOnce();
                feedLag.sampleOnce();
                paused.sampleOnce();
                o1.forEach(GaugeSampler::sampleOnce);
              }
            },
            0,
            Math.max(1, millis),
            TimeUnit.MILLISECONDS);
    HttpEndpoint endpoint;
    try {
      Map<String, HttpHandler> contexts =
          taskq.config().httpPort() == 0 ? Map.of() : extensionContexts(taskq);
      endpoint = HttpEndpoint.fromConfig(taskq.config(), routes, contexts).orElse(null);
    } catch (RuntimeException e) {
      sampling.shutdownNow();
      throw e;
    }
    return new TaskQObservability(queues, feedLag, routes, sampling, samples, endpoint);
  }

  /**
   * The contexts of every {@link EndpointExtension} on the class path (the dashboard's when {@code
   * TASKQ_HTTP_DASHBOARD=true}), in the order found; a path two of them claim is refused.
   */
  private static Map<String, HttpHandler> extensionContexts(TaskQ taskq) {
    Map<String, HttpHandler> contexts = new LinkedHashMap<>();
    ClassLoader loader = TaskQObservability.class.getClassLoader();
    for (EndpointExtension extension : ServiceLoader.load(EndpointExtension.class, loader)) {
      extension
          .contexts(taskq)
          .forEach(
              (path, handler) -> {
                if (contexts.putIfAbsent(path, handler) != null) {
                  throw new IllegalArgumentException(
                      "two extensions of the HTTP endpoint serve " + path);
                }
              });
    }
    return contexts;
  }

  /** O1 backlog detection: {@code taskq.maintenance_leader.sweep_backlog{sweep_name}}. */
  static GaugeSampler<Map.Entry<String, BoundedCount>> backlogSampler(
      Callable<List<Map.Entry<String, BoundedCount>>> source, MeterRegistry registry) {
    return new GaugeSampler<>(
        BACKLOG_SAMPLER,
        source,
        e ->
            List.of(
                new GaugePoint(
                    MeterNames.SWEEP_BACKLOG,
                    "Rows the leader sweep would act on now, counted up to "
                        + Operations.SWEEP_BACKLOG_BOUND,
                    null,
                    Tags.of("sweep_name", e.getKey()),
                    e.getValue().count())),
        registry);
  }

  /** O1 per-actor backlog: {@code taskq.actor.depth{actor}}, {@code .oldest_pending_age}. */
  static GaugeSampler<ActorBacklog> actorBacklogSampler(
      Callable<List<ActorBacklog>> source, MeterRegistry registry) {
    return new GaugeSampler<>(
        ACTOR_BACKLOG_SAMPLER,
        source,
        b ->
            List.of(
                new GaugePoint(
                    MeterNames.ACTOR_DEPTH,
                    "Pending jobs of the actor, as the last successful sampler read saw them",
                    null,
                    Tags.of("actor", b.actor()),
                    b.depth()),
                new GaugePoint(
                    MeterNames.ACTOR_OLDEST_PENDING_AGE,
                    "Age of the actor's oldest runnable pending job",
                    "seconds",
                    Tags.of("actor", b.actor()),
                    b.oldestPendingAge().toMillis() / 1000.0)),
        registry);
  }

  /** O1 reservation slots: {@code taskq.reservation_slots.held / .capacity{kind, name}}. */
  static GaugeSampler<ReservationSlots> reservationSlotSampler(
      Callable<List<ReservationSlots>> source, MeterRegistry registry) {
    return new GaugeSampler<>(
        RESERVATION_SLOTS_SAMPLER,
        source,
        r -> {
          Tags tags = Tags.of("kind", r.kind(), "name", r.name());
          GaugePoint held =
              new GaugePoint(
                  MeterNames.RESERVATION_SLOTS_HELD,
                  "Concurrency-cap reservation slots held now",
                  null,
                  tags,
                  r.held());
          if (r.kind().equals("key")) {
            return List.of(held);
          }
          return List.of(
              held,
              new GaugePoint(
                  MeterNames.RESERVATION_SLOTS_CAPACITY,
                  "A concurrency cap's reservation slots (its cap)",
                  null,
                  tags,
                  r.capacity()));
        },
        registry);
  }

  /** The check {@code /ready} runs: a ping bounded by its budget in wall-clock time (R1). */
  private static DatabaseCheck databaseCheck(TaskQ taskq) {
    DatabaseCheck ping = () -> taskq.checkDatabase(DATABASE_CHECK_TIMEOUT);
    return ping.bounded(DATABASE_CHECK_TIMEOUT);
  }

  private static List<QueueReading> readings(TaskQ taskq) throws Exception {
    List<QueueReading> out = new ArrayList<>();
    for (QueueBacklog b : taskq.queueBacklog()) {
      out.add(new QueueReading(b.queue(), b.depth(), b.oldestPendingAge()));
    }
    return out;
  }

  private static ProcessState state(TaskQ taskq) {
    if (taskq.isClosed()) {
      return ProcessState.STOPPING;
    }
    return taskq.isRunning() ? ProcessState.RUNNING : ProcessState.STARTING;
  }

  /**
   * {@return {@code /live}, {@code /ready} and {@code /metrics}, to mount in the application's
   * server}
   */
  public Map<String, EndpointHandler> routes() {
    return routes;
  }

  /** {@return the queue-depth sampler ({@code sweep_name} {@value #QUEUE_SAMPLER})} */
  public QueueSampler queueSampler() {
    return queueSampler;
  }

  /** {@return the feed-lag sampler ({@code sweep_name} {@value #FEED_LAG_SAMPLER})} */
  public FeedLagSampler feedLagSampler() {
    return feedLagSampler;
  }

  /**
   * {@return the address the endpoint listens on; empty when {@code TASKQ_HTTP_PORT} is 0 (off)}
   */
  public Optional<InetSocketAddress> endpointAddress() {
    return endpoint == null ? Optional.empty() : Optional.of(endpoint.address());
  }

  /** Stops the samplers and the endpoint; the TaskQ and the registry are left as they are. */
  @Override
  public void close() {
    samples.cancel(false);
    sampling.shutdownNow();
    if (endpoint != null) {
      endpoint.close();
    }
  }
}
