package io.taskq.postgres;

import io.taskq.core.Actor;
import io.taskq.core.SchemaName;
import io.taskq.postgres.internal.dispatch.ListenConnectionSource;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.internal.worker.Worker;
import io.taskq.postgres.internal.worker.WorkerSettings;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.Executor;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * TaskQ inside an application (L11): register actors, {@link #start()}, and jobs enqueued for those
 * actors run here, on a worker that claims, runs, retries and records them; {@link #close()} shuts
 * it down gracefully.
 *
 * <pre>{@code
 * try (TaskQ taskq = TaskQ.builder(dataSource).schema("taskq").build()) {
 *   taskq.register(Actor.rawJson("send-email", (json, ctx) -> mailer.send(json)));
 *   taskq.start();
 *   ...
 * }
 * }</pre>
 *
 * <p>The {@link DataSource} is the application's; TaskQ borrows connections for short statements
 * and keeps one for good to LISTEN for wake-ups (unless {@link Builder#listenDirect} names a direct
 * URL, which is needed behind a transaction-pooling proxy). Handlers run on the {@link Executor}
 * given to the builder, or on a pool of {@code concurrency} threads TaskQ owns. See {@code
 * docs/workers.md} for the loops, connections and shutdown order.
 */
public final class TaskQ implements AutoCloseable {
  private enum State {
    NEW,
    STARTED,
    CLOSED
  }

  private final DataSource dataSource;
  private final WorkerSettings settings;
  private final @Nullable Executor executor;
  private final ListenConnectionSource listen;
  private final boolean migrate;
  private final Map<String, Actor<?>> actors = new LinkedHashMap<>();
  private State state = State.NEW;
  private @Nullable Worker worker;

  private TaskQ(Builder builder) {
    this.dataSource = builder.dataSource;
    this.settings = builder.settings();
    this.executor = builder.executor;
    this.listen =
        builder.listen != null ? builder.listen : ListenConnectionSource.borrowed(dataSource);
    this.migrate = builder.migrate;
  }

  /** Starts a TaskQ on the application's {@code dataSource}. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /**
   * Registers an actor; before {@link #start()} only.
   *
   * @throws IllegalArgumentException when an actor of that name is already registered
   * @throws IllegalStateException after {@link #start()}
   */
  public synchronized TaskQ register(Actor<?> actor) {
    Objects.requireNonNull(actor, "actor");
    if (state != State.NEW) {
      throw new IllegalStateException("register actors before start(); TaskQ is " + state);
    }
    if (actors.putIfAbsent(actor.name(), actor) != null) {
      throw new IllegalArgumentException(
          "an actor named '" + actor.name() + "' is already registered");
    }
    return this;
  }

  /**
   * Brings the schema up to date (unless disabled), registers this process as a worker with its
   * actors, and starts claiming.
   *
   * @throws IllegalStateException when no actor is registered, or when started or closed already
   * @throws SchemaMigrationException when the schema cannot be brought to this version
   * @throws SQLException when the database refuses the worker's registration
   */
  public synchronized void start() throws SQLException {
    if (state != State.NEW) {
      throw new IllegalStateException("start() may be called once; TaskQ is " + state);
    }
    if (actors.isEmpty()) {
      throw new IllegalStateException("register at least one actor before start()");
    }
    if (migrate) {
      Migrations.apply(dataSource, settings.schema());
    }
    worker = Worker.start(dataSource, listen, settings, actors.values(), executor);
    state = State.STARTED;
  }

  /**
   * Shuts down gracefully: stops claiming, waits up to the shutdown grace for running handlers,
   * hands the unfinished jobs back to the queue, records every outcome, and deregisters. Safe to
   * call more than once, and before {@link #start()}.
   */
  @Override
  public synchronized void close() {
    Worker running = worker;
    state = State.CLOSED;
    worker = null;
    if (running != null) {
      running.close();
    }
  }

  /** The schema this TaskQ works in. */
  public SchemaName schema() {
    return settings.schema();
  }

  /**
   * This process's worker id (the {@code workers} row, {@code jobs.locked_by}).
   *
   * @throws IllegalStateException when not started
   */
  public synchronized String workerId() {
    return runningWorker().id();
  }

  synchronized Worker runningWorker() {
    Worker running = worker;
    if (running == null) {
      throw new IllegalStateException("TaskQ is " + state + ", not running");
    }
    return running;
  }

  /**
   * Builds a {@link TaskQ}. Every setter checks its argument when {@link #build()} runs, with a
   * message naming the knob, the bad value and the allowed range.
   */
  public static final class Builder {
    private final DataSource dataSource;
    private final WorkerSettings defaults = WorkerSettings.defaults(SchemaName.of("taskq"));
    private SchemaName schema = defaults.schema();
    private int concurrency = defaults.concurrency();
    private List<String> queues = defaults.queues();
    private int claimBatchSize = defaults.claimBatchSize();
    private Duration leasePeriod = defaults.leasePeriod();
    private Duration heartbeatInterval = defaults.heartbeatInterval();
    private Duration pollInterval = defaults.pollInterval();
    private Duration shutdownGrace = defaults.shutdownGrace();
    private Duration resultTtl = defaults.resultTtl();
    private Duration maxRetryBackoff = defaults.maxRetryBackoff();
    private @Nullable Executor executor;
    private @Nullable ListenConnectionSource listen;
    private boolean migrate = true;

    private Builder(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** The schema TaskQ's tables live in; default {@code taskq}. */
    public Builder schema(String schema) {
      this.schema = SchemaName.of(schema);
      return this;
    }

    /**
     * Runs handlers on {@code executor} instead of a pool TaskQ owns. TaskQ never shuts it down.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** Handlers running at once; default 8, 1 to 10 000. */
    public Builder concurrency(int concurrency) {
      this.concurrency = concurrency;
      return this;
    }

    /** The queues to claim from; default: the queues of the registered actors. */
    public Builder queues(String... queues) {
      this.queues = new ArrayList<>(Arrays.asList(queues));
      return this;
    }

    /** Most jobs one claim takes; default 10, 1 to 1 000. */
    public Builder claimBatchSize(int size) {
      this.claimBatchSize = size;
      return this;
    }

    /** How long a claim or heartbeat keeps a job's lease; default 30 s, 1 s to 1 day. */
    public Builder leasePeriod(Duration period) {
      this.leasePeriod = period;
      return this;
    }

    /** Time between heartbeats; default 5 s, 10 ms to half the lease period. */
    public Builder heartbeatInterval(Duration interval) {
      this.heartbeatInterval = interval;
      return this;
    }

    /** How often to look for due jobs when no notification came; default 1 s, 10 ms to 1 h. */
    public Builder pollInterval(Duration interval) {
      this.pollInterval = interval;
      return this;
    }

    /** How long {@code close()} waits for running handlers; default 30 s, 0 to 1 h. */
    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = grace;
      return this;
    }

    /** How long a handler's result is kept; 0 keeps none; default 1 day, 0 to 3650 days. */
    public Builder resultTtl(Duration ttl) {
      this.resultTtl = ttl;
      return this;
    }

    /** Ceiling on every retry delay; default 1 h, 1 ms to 3650 days. */
    public Builder maxRetryBackoff(Duration ceiling) {
      this.maxRetryBackoff = ceiling;
      return this;
    }

    /**
     * LISTEN on a connection of its own to {@code jdbcUrl} instead of one borrowed from the data
     * source: needed when the data source goes through a transaction-pooling proxy (D8).
     *
     * @param properties driver properties (user, password, timeouts)
     */
    public Builder listenDirect(String jdbcUrl, Properties properties) {
      this.listen =
          ListenConnectionSource.direct(Objects.requireNonNull(jdbcUrl, "jdbcUrl"), properties);
      return this;
    }

    /**
     * Whether {@code start()} applies the schema migrations; default true. Turn off when the schema
     * is migrated with another tool (the files are in {@code sql/}).
     */
    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    WorkerSettings settings() {
      return new WorkerSettings(
          schema,
          concurrency,
          queues,
          claimBatchSize,
          leasePeriod,
          heartbeatInterval,
          pollInterval,
          shutdownGrace,
          resultTtl,
          maxRetryBackoff,
          defaults.claimGather(),
          defaults.completionBatchSize());
    }

    /**
     * Builds the TaskQ (not started).
     *
     * @throws IllegalArgumentException naming the first knob out of range
     */
    public TaskQ build() {
      return new TaskQ(this);
    }
  }
}
