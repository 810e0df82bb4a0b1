package io.taskq;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.core.internal.RedisKeys;
import io.taskq.cron.Schedules;
import io.taskq.feed.ReclaimEventFeed;
import io.taskq.limits.PostgresSlidingWindow;
import io.taskq.limits.RateLimiter;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.operations.FinishedMinute;
import io.taskq.operations.Operations;
import io.taskq.operations.QueueBacklog;
import io.taskq.operations.SchemaMigrations;
import io.taskq.postgres.internal.CloseDeadline;
import io.taskq.postgres.internal.Connections;
import io.taskq.postgres.internal.GuardedJobListener;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.OwnedPool;
import io.taskq.postgres.internal.PoolerCheck;
import io.taskq.postgres.internal.RunningParts;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.caps.CapsSettings;
import io.taskq.postgres.internal.caps.ConcurrencyCaps;
import io.taskq.postgres.internal.cron.PayloadFactories;
import io.taskq.postgres.internal.execution.InlineRunner;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.internal.migrate.PostgresMigrations;
import io.taskq.postgres.internal.observe.QueueObservations;
import io.taskq.postgres.internal.operations.PostgresOperations;
import io.taskq.postgres.internal.startup.StartupChecks;
import io.taskq.postgres.internal.worker.Worker;
import io.taskq.postgres.internal.worker.WorkerSettings;
import io.taskq.progress.PostgresProgressStore;
import io.taskq.progress.ProgressStore;
import io.taskq.spi.JobListener;
import io.taskq.spi.MaintenanceHealth;
import io.taskq.spi.MaintenanceListener;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * TaskQ inside an application (L11): register actors, {@link #start()}, and jobs enqueued for those
 * actors run here, on a worker that claims, runs, retries and records them; {@link #close()} shuts
 * it down gracefully.
 *
 * <pre>{@code
 * try (TaskQ taskq = TaskQ.builder(dataSource).build()) {
 *   taskq.register(
 *       Actor.rawJson(
 *           "send-email",
 *           (json, ctx) -> {
 *             mailer.send(json);
 *             return null; // no result to store
 *           }));
 *   taskq.start();
 *   taskq.jobs().enqueue(JobRequest.of("send-email", "{\"to\": \"a@example.com\"}"));
 *   ...
 * }
 * }</pre>
 *
 * <p><b>The one root (K1).</b> Every component is a handle from here: {@link #jobs()}, {@link
 * #schedules()}, {@link #reclaimEvents()}, {@link #progress()}, {@link #operations()}, {@link
 * #migrations()}; their settings come from the {@link TaskQConfig} of the root. A process that only
 * enqueues, looks up and operates starts from {@link #producer(DataSource)}: no actors, no worker,
 * maintenance optional.
 *
 * <p><b>Connections.</b> Given the application's {@link DataSource}, TaskQ borrows connections for
 * short statements and keeps one for good to LISTEN for wake-ups (or opens a direct one to {@code
 * TASKQ_DATABASE_DIRECT_URL} when set, as a transaction-pooling proxy requires). Without one, it
 * opens a HikariCP pool of its own from {@code TASKQ_DATABASE_URL}, closed by {@link #close()}.
 *
 * <p><b>Settings</b> come from a {@link TaskQConfig} (by default the {@code TASKQ_*} environment).
 * Handlers run on the {@link Executor} given to the builder, or on a pool of {@code
 * TASKQ_WORKER_CONCURRENCY} threads TaskQ owns. {@code docs/workers.md} describes the loops,
 * connections and shutdown order.
 *
 * <p><b>Maintenance.</b> {@link #start()} also makes this process a candidate for the schema's
 * maintenance leadership (M1): exactly one process per schema at a time runs the repair sweeps
 * (reclaim of expired leases, deadlines, scheduled-to-pending every second, and the rest; {@code
 * docs/maintenance-sweeps.md}), the others keep campaigning and take over when it goes. The leader
 * holds a session advisory lock on a connection of its own, outside any pool (D8): a direct
 * connection to {@code TASKQ_DATABASE_DIRECT_URL}, else to {@code TASKQ_DATABASE_URL} when TaskQ
 * owns its pool; given only the application's DataSource, it borrows one of its connections for as
 * long as it campaigns or leads (like the listener, for good). Behind a transaction-pooling proxy
 * set the direct URL: the migrations run there too, and {@link #start()} refuses to start behind
 * one without it (R2, {@code docs/configuration.md}). {@link #health()} and {@link #isLeader()}
 * report on it; {@link Builder#maintenance(boolean)} turns it off for processes that should never
 * lead.
 *
 * <p><b>Cron.</b> With maintenance on, {@link #start()} also starts the cron loop (S12): every
 * second it fires the due schedules of {@link #schedules()}, one tick at a time per schema under
 * the {@code taskq:cron:{schema}} lock, whichever process gets it ({@code docs/cron.md}).
 *
 * <p><b>Observability.</b> {@link Builder#listener(MaintenanceListener)} hears the maintenance
 * signals and {@link Builder#jobListener(JobListener)} the job lifecycle (enqueues, starts,
 * successes, failures, the reclaim feed's lag); the Micrometer binding {@code TaskQMetrics}
 * implements both ({@code docs/observability.md}). {@link #queueBacklog()} and {@link
 * #checkDatabase(Duration)} feed the queue gauges and the readiness probe.
 */
public final class TaskQ implements AutoCloseable {
  private enum State {
    NEW,
    STARTED,
    CLOSED
  }

  private final TaskQConfig config;
  private final Connections connections;
  private final @Nullable Executor executor;
  private final boolean migrate;
  private final boolean maintain;
  private final boolean inline;
  private final boolean runsWorker;
  private final MaintenanceListener maintenanceListener;
  private final Map<String, Integer> queueCaps;
  private final List<JobInterceptor> interceptors;
  private final List<EnqueueInterceptor> enqueueInterceptors;
  private final @Nullable BiFunction<Actor.ActorRateLimit, RateLimiter, RateLimiter> rateLimiters;
  private final @Nullable ProgressStore givenProgress;
  private final UnaryOperator<ProgressStore> overPostgres;
  private final JobListener jobListener;
  private final QueueObservations observations;
  private final boolean producer;
  private final Map<String, Actor<?>> actors = new LinkedHashMap<>();

  /** L3: the registered actors' own retry policies, read by the client at every enqueue. */
  private final Map<String, RetryPolicy> actorPolicies = new ConcurrentHashMap<>();

  /** R5: the registered actors' declared queues, where their jobs go unless a request names one. */
  private final Map<String, String> actorQueues = new ConcurrentHashMap<>();

  private @Nullable PostgresProgressStore ownedProgress;
  private @Nullable ProgressStore chosenProgress;
  // Volatile, and read without the TaskQ lock by the probes (health, isLeader, isRunning,
  // isClosed): start() and close() hold that lock while they talk to the database, and a probe
  // must never wait on database I/O behind a lock (R1).
  private volatile State state = State.NEW;
  private @Nullable JobsClient jobs;
  private @Nullable ReclaimEventFeed reclaimEvents;
  // The worker, maintenance and cron loop; read by the probes without the lock, like state.
  private final RunningParts parts;
  private final PayloadFactories payloadFactories = new PayloadFactories();
  private final TestHooks testHooks = TestHooks.create(this::crash);
  private @Nullable Schedules schedules;
  private @Nullable Operations operations;
  private @Nullable InlineRunner inlineRunner;

  private TaskQ(Builder builder, TaskQConfig config) {
    this.config = config;
    this.connections = new Connections(config, builder.dataSource);
    this.parts = new RunningParts(config);
    this.executor = builder.executor;
    this.migrate = builder.migrate;
    this.maintain = builder.maintenance;
    this.inline = builder.inline;
    this.runsWorker = !builder.inline && !builder.drainOnly && !builder.producer;
    this.maintenanceListener = builder.listener;
    this.queueCaps = Map.copyOf(builder.queueCaps);
    this.interceptors = List.copyOf(builder.interceptors);
    this.enqueueInterceptors = List.copyOf(builder.enqueueInterceptors);
    this.rateLimiters = builder.rateLimiters;
    this.givenProgress = builder.progress;
    this.overPostgres = builder.overPostgres;
    this.jobListener = GuardedJobListener.of(builder.jobListener);
    this.observations = new QueueObservations(config.schemaName());
    builder.knownActors.forEach(this::stamp);
    this.producer = builder.producer;
  }

  /**
   * {@return a TaskQ that opens its own pool from {@code TASKQ_DATABASE_URL}, unless given a
   * DataSource}
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@return a TaskQ on the application's {@code dataSource}}
   *
   * @param dataSource the application's data source
   */
  public static Builder builder(DataSource dataSource) {
    return new Builder().dataSource(dataSource);
  }

  /**
   * A producer-only TaskQ on the application's {@code dataSource} (K1): it enqueues, looks up and
   * operates through the same handles ({@link #jobs()}, {@link #operations()}, {@link
   * #schedules()}, {@link #reclaimEvents()}, {@link #progress()}), registers no actor and runs no
   * worker. {@link #start()} (optional) brings the schema up to date as {@code TASKQ_MIGRATE} says
   * and, only when {@link Builder#maintenance(boolean) maintenance(true)} is set, campaigns for
   * maintenance leadership and runs the cron loop; maintenance is off by default.
   *
   * <pre>{@code
   * try (TaskQ producer = TaskQ.producer(dataSource).build()) {
   *   long id = producer.jobs().enqueue(JobRequest.of("send-email", "{}"));
   *   producer.jobs().find(id);
   * }
   * }</pre>
   *
   * @param dataSource the application's data source
   * @return a builder in producer-only mode
   */
  public static Builder producer(DataSource dataSource) {
    return new Builder().producer().dataSource(dataSource);
  }

  /**
   * {@return a builder in producer-only mode, as {@link #producer(DataSource)}, on a pool of its
   * own from {@code TASKQ_DATABASE_URL}}
   */
  public static Builder producer() {
    return new Builder().producer();
  }

  /**
   * Registers an actor; before {@link #start()} only.
   *
   * @param actor the actor to register
   * @return this TaskQ
   * @throws IllegalArgumentException when an actor of that name is already registered
   * @throws IllegalStateException after {@link #start()}
   */
  public synchronized TaskQ register(Actor<?> actor) {
    Objects.requireNonNull(actor, "actor");
    refuseOnProducer(actor);
    if (state != State.NEW || inlineRunner != null) {
      throw new IllegalStateException(
          "register actors before start() and before the first job runs inline; TaskQ is " + state);
    }
    if (actors.putIfAbsent(actor.name(), actor.withOuterInterceptors(interceptors)) != null) {
      throw new IllegalArgumentException(
          "an actor named '" + actor.name() + "' is already registered");
    }
    stamp(actor);
    return this;
  }

  /** R5, L3: what the client stamps into the jobs of {@code actor}: its queue and retry policy. */
  private void stamp(Actor<?> actor) {
    actor.retryPolicy().ifPresent(p -> actorPolicies.put(actor.name(), p));
    actorQueues.put(actor.name(), actor.queue());
  }

  private void refuseOnProducer(Actor<?> actor) {
    if (producer) {
      throw new IllegalStateException(
          "a producer-only TaskQ registers no actor: build it with TaskQ.builder(...) to run"
              + " actor '"
              + actor.name()
              + "'");
    }
  }

  /**
   * Brings the schema up to date, or checks it is ({@code TASKQ_MIGRATE}: apply, verify or skip;
   * not at all when {@link Builder#migrate(boolean)} is false), registers this process as a worker
   * with its actors, starts claiming, and starts campaigning for maintenance leadership (unless
   * disabled).
   *
   * @throws IllegalStateException when no actor is registered, or when started or closed already;
   *     when the database in {@code TASKQ_DATABASE_URL} does not answer (naming it)
   * @throws io.taskq.TaskQConfigException when a start-up check refuses the settings: a pool too
   *     small for TaskQ, a setting whose module is absent, or a transaction pooler in front of the
   *     database without {@code TASKQ_DATABASE_DIRECT_URL} ({@code docs/configuration.md})
   * @throws SchemaMigrationException when the schema cannot be brought to this version
   * @throws SQLException when the database refuses the worker's registration
   */
  public synchronized void start() throws SQLException {
    checkStartable();
    StartupChecks.run(config, connections.given(), maintain);
    connections.behindPooler(PoolerCheck.check(config, connections.given(), needsSession()));
    DataSource dataSource = dataSource();
    state = State.STARTED;
    migrateAtStart(dataSource);
    if (producer) {
      if (maintain) {
        startMaintenanceAndCron(dataSource);
      }
      return; // K1: a producer runs no worker
    }
    if (!runsWorker) {
      return; // P5: no worker, no maintenance; jobs run inline or when a test drains
    }
    parts.workerStarted(startWorker(dataSource));
    if (maintain) {
      startMaintenanceAndCron(dataSource);
    }
  }

  private void checkStartable() {
    if (state != State.NEW) {
      throw new IllegalStateException("start() may be called once; TaskQ is " + state);
    }
    if (actors.isEmpty() && !producer) {
      throw new IllegalStateException("register at least one actor before start()");
    }
  }

  /** L11: the worker of the registered actors, claiming from now on. */
  private Worker startWorker(DataSource dataSource) throws SQLException {
    return Worker.start(
        dataSource,
        connections.listenSource(dataSource),
        WorkerSettings.of(config, actors.values()),
        actors.values(),
        executor,
        jobListener,
        ActorRateLimits.extensions(dataSource, config, actors.values(), rateLimiters, progress()),
        new CapsSettings(
            ConcurrencyCaps.of(queueCaps, actors.values()),
            config.maxKeyedReservations(),
            config.sweepInterval()),
        testHooks);
  }

  private void startMaintenanceAndCron(DataSource dataSource) {
    parts.startMaintenanceAndCron(
        dataSource,
        connections.leaderSource(dataSource),
        payloadFactories,
        testHooks,
        maintenanceListener,
        jobListener,
        enqueueInterceptors,
        actorQueues.keySet());
  }

  /** R2: whether start() does work that needs a session of its own (not a pooled one). */
  private boolean needsSession() {
    boolean migrates =
        migrate && !"verify".equals(config.migrate()) && !"skip".equals(config.migrate());
    return migrates || maintain || (!producer && runsWorker);
  }

  /**
   * A7: what {@code TASKQ_MIGRATE} asks for: apply what is pending, verify, or skip. Applying takes
   * a session advisory lock, so it runs on {@code TASKQ_DATABASE_DIRECT_URL} when set (R2).
   */
  private void migrateAtStart(DataSource dataSource) {
    if (!migrate) {
      return; // Builder.migrate(false): the schema is migrated with another tool
    }
    switch (config.migrate()) {
      case "verify" -> Migrations.verify(dataSource, config.schemaName());
      case "skip" -> {
        // the schema is managed elsewhere
      }
      default -> Migrations.apply(migrationSource(dataSource), config.schemaName());
    }
  }

  /** Where migrations run: the direct URL when set (a session of its own, R2), else the pool. */
  private DataSource migrationSource(DataSource dataSource) {
    return OwnedPool.directDataSource(config, "taskq migrate:" + config.schemaName().value())
        .orElse(dataSource);
  }

  /**
   * {@return the schema's migrations as an operation (A7): apply, verify, status ({@code
   * docs/operations.md})} Usable before {@link #start()} and in a producer-only process.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized SchemaMigrations migrations() {
    return new PostgresMigrations(migrationSource(dataSource()), config.schemaName());
  }

  /**
   * Registers a cron payload factory under {@code name} (S12): schedules naming it get their job's
   * payload from it at fire time. Register the same factories in every process that runs a cron
   * loop (every process with maintenance on), before {@link #start()}: any of them may run a tick.
   *
   * @param name the factory's name, as schedules name it
   * @param factory the factory
   * @return this TaskQ
   * @throws IllegalArgumentException when the name is empty, too long, contains NUL, or is taken
   */
  public TaskQ registerPayloadFactory(String name, PayloadFactory factory) {
    payloadFactories.register(name, factory);
    return this;
  }

  /**
   * {@return the client to create, change, enable, disable, delete and list this schema's cron
   * schedules (S12, {@code docs/cron.md})} Usable before {@link #start()}, once the schema is
   * migrated.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized Schedules schedules() {
    Schedules client = schedules;
    if (client == null) {
      client = Handles.schedules().create(dataSource(), config.schemaName(), payloadFactories);
      schedules = client;
    }
    return client;
  }

  /**
   * {@return the client to enqueue, look up and cancel jobs in this TaskQ's schema} Usable before
   * {@link #start()} (a process may enqueue without running workers), once the schema is migrated.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized JobsClient jobs() {
    JobsClient client = jobs;
    if (client == null) {
      JobsClient.Builder builder =
          JobsClient.configured(dataSource(), config)
              .listener(jobListener)
              .actorPolicies(name -> Optional.ofNullable(actorPolicies.get(name)))
              .actorQueues(name -> Optional.ofNullable(actorQueues.get(name)))
              .testHooks(testHooks);
      if (inline) {
        builder.afterCommit(this::runInline);
      }
      enqueueInterceptors.forEach(builder::interceptEnqueue);
      client = builder.build();
      jobs = client;
    }
    return client;
  }

  /**
   * {@return the operations handle of this schema (A1-A4): search, counts, one job's full story,
   * retry by hand and by filter, pause and resume ({@code docs/operations.md})} Usable before
   * {@link #start()} and in a process that registers no actor, once the schema is migrated.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized Operations operations() {
    Operations ops = operations;
    if (ops == null) {
      JobsClient client = jobs();
      ops =
          new PostgresOperations(
              dataSource(),
              config.schemaName(),
              client::find,
              progress(),
              JobsClient.statementTimeout(config),
              config.eventWriterBatchSize(),
              config.eventWriterStatementTimeout());
      operations = ops;
    }
    return ops;
  }

  /**
   * {@return where job progress is kept and read (M5): the store given to {@link
   * Builder#progress(ProgressStore)}, or the one {@link Builder#progress(UnaryOperator)} made over
   * this root's PostgreSQL store, else that PostgreSQL store ({@link PostgresProgressStore},
   * subscriptions polling every {@code TASKQ_POLL_INTERVAL})} Handlers report through {@link
   * io.taskq.JobContext#reportProgress}; clients read a job's latest progress and subscribe here.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized ProgressStore progress() {
    ProgressStore given = givenProgress;
    if (given != null) {
      return given;
    }
    ProgressStore chosen = chosenProgress;
    if (chosen == null) {
      PostgresProgressStore owned =
          Handles.progress().create(dataSource(), config.schemaName(), config.pollInterval());
      ownedProgress = owned;
      chosen = Objects.requireNonNull(overPostgres.apply(owned), "Builder.progress(...) gave null");
      chosenProgress = chosen;
    }
    return chosen;
  }

  /**
   * {@return a PostgreSQL sliding-window limiter of {@code limit} in this root's schema (M4, D14):
   * the limiter a deployment without Redis keeps its limits in, and a Redis limiter's fallback}
   * Every limiter of the same limit and name in the schema shares its budget.
   *
   * @param limit the limit applied to each name
   * @param keyed whether the names are keys of a high-cardinality limit (one per customer, per IP):
   *     their rows are then deleted once unused past {@code TASKQ_KEYED_ROW_RECLAIM_PERIOD} (S9)
   * @throws IllegalStateException after {@link #close()}
   */
  public PostgresSlidingWindow slidingWindow(SlidingWindowLog limit, boolean keyed) {
    DataSource dataSource = dataSource(); // the lock only for this, not for the I/O (R1)
    return Handles.slidingWindows().create(dataSource, config.schemaName(), limit, keyed);
  }

  /**
   * {@return the crash-reclaim event feed of this TaskQ's schema (E1-E4), configured from its
   * settings; its polls report the feed's lag to the job listener ({@code taskq.events.feed_lag})}
   * Usable before {@link #start()}, once the schema is migrated.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized ReclaimEventFeed reclaimEvents() {
    ReclaimEventFeed feed = reclaimEvents;
    if (feed == null) {
      feed = Handles.feeds().create(dataSource(), config, jobListener, testHooks);
      reclaimEvents = feed;
    }
    return feed;
  }

  /**
   * {@return pending jobs per queue and the age of the oldest runnable one, by the database clock:
   * the source of the queue-depth gauges} One grouped read of the pending jobs under a 5-second
   * statement timeout; queues without pending jobs are absent.
   *
   * @throws SQLException when the read fails or times out
   * @throws IllegalStateException after {@link #close()}
   */
  public List<QueueBacklog> queueBacklog() throws SQLException {
    DataSource dataSource = dataSource(); // the lock only for this, not for the I/O (R1)
    return observations.queueBacklog(dataSource);
  }

  /**
   * {@return jobs that finished within {@code window} before now, per minute of the database clock
   * (minutes without any are absent): the dashboard's throughput chart} One grouped range read of
   * the finished-jobs index under a 5-second statement timeout; jobs already pruned are not
   * counted.
   *
   * @param window how far back, 1 minute to 1 day
   * @throws SQLException when the read fails or times out
   * @throws IllegalArgumentException when {@code window} is out of range
   * @throws IllegalStateException after {@link #close()}
   */
  public List<FinishedMinute> finishedPerMinute(Duration window) throws SQLException {
    if (window.compareTo(Duration.ofMinutes(1)) < 0 || window.compareTo(Duration.ofDays(1)) > 0) {
      throw new IllegalArgumentException("window must be 1 minute to 1 day, was " + window);
    }
    DataSource dataSource = dataSource(); // the lock only for this, not for the I/O (R1)
    return observations.finishedPerMinute(dataSource, window);
  }

  /**
   * The readiness probe's database check: borrows a connection and runs one trivial statement
   * within {@code timeout} (rounded up to whole seconds).
   *
   * @param timeout the longest the check may take
   * @throws SQLException when the database does not answer in time
   * @throws IllegalStateException after {@link #close()}
   */
  public void checkDatabase(Duration timeout) throws SQLException {
    DataSource dataSource = dataSource(); // the lock only for this, not for the I/O (R1)
    observations.ping(dataSource, timeout);
  }

  /**
   * Runs every due job of the registered actors now, in the calling thread, one attempt each, until
   * none is due, and returns the attempts in the order they ran (P5, {@code docs/testing.md}). Jobs
   * the handlers enqueue meanwhile run too; a job whose attempt failed and waits out its retry
   * backoff is not due, and scheduled jobs are not run: see {@link #drainIncludingScheduled()}.
   *
   * <p>Each attempt is a worker's attempt (the same claim fencing, codec, handler, completion
   * statement and stamped retry policy), run by the caller's thread; concurrency caps and rate
   * limits are not consulted and no heartbeat renews the lease. Meant for tests; works whether or
   * not this TaskQ runs a worker (a job a worker claimed first is left to it).
   *
   * @return the attempts in the order they ran
   * @throws IllegalStateException when no actor is registered, after {@link #close()}, or when 100
   *     000 attempts ran and jobs are still due (handlers that enqueue without end)
   * @throws JobStoreException when the database fails
   */
  public List<RanAttempt> drain() {
    return drain(false);
  }

  /**
   * {@return the attempts in the order they ran} Like {@link #drain()}, but including scheduled
   * jobs and jobs waiting out a retry backoff: each job runs now, attempt after attempt, until it
   * ends (its attempts are bounded by its retry policy).
   *
   * @throws IllegalStateException as {@link #drain()} does
   * @throws JobStoreException when the database fails
   */
  public List<RanAttempt> drainIncludingScheduled() {
    return drain(true);
  }

  private List<RanAttempt> drain(boolean includeScheduled) {
    InlineRunner runner = inlineRunner();
    try {
      return runner.drain(includeScheduled);
    } catch (SQLException e) {
      throw new JobStoreException("drain failed: " + e.getMessage(), e);
    }
  }

  /** Inline mode: runs each committed job in the enqueueing thread until it ends. */
  private void runInline(List<Long> ids) {
    InlineRunner runner = inlineRunner();
    for (long id : ids) {
      try {
        runner.runToEnd(id);
      } catch (SQLException e) {
        throw new JobStoreException(
            "job "
                + id
                + " was enqueued and committed, but running it inline failed: "
                + e.getMessage(),
            e);
      }
    }
  }

  private synchronized InlineRunner inlineRunner() {
    if (actors.isEmpty()) {
      throw new IllegalStateException("register at least one actor before running jobs inline");
    }
    InlineRunner runner = inlineRunner;
    if (runner == null) {
      runner =
          new InlineRunner(
              dataSource(),
              NamedStatements.load("io/taskq/postgres/sql/inline.sql", schema()),
              NamedStatements.load("io/taskq/postgres/sql/completion.sql", schema()),
              actors,
              new InlineRunner.Durations(
                  config.leasePeriod(), config.resultTtl(), config.maxRetryBackoff()),
              jobListener,
              progress());
      inlineRunner = runner;
    }
    return runner;
  }

  /** The application's data source, or the pool TaskQ opens on first use. */
  private synchronized DataSource dataSource() {
    if (state == State.CLOSED) {
      throw new IllegalStateException("TaskQ is closed");
    }
    return connections.dataSource();
  }

  /**
   * Shuts down gracefully: gives up maintenance leadership (another process takes over), stops
   * claiming, waits up to the shutdown grace for running handlers, hands the unfinished jobs back
   * to the queue, records every outcome, deregisters, and closes the pool TaskQ opened. Safe to
   * call more than once, and before {@link #start()}.
   *
   * <p>Bounded (R1): when the database does not answer, close gives up on it once it has taken the
   * shutdown grace plus one dispatcher command timeout, aborting the leader's connection and the
   * connections in use of the pool TaskQ opened (an application's own pool is left alone); the jobs
   * it could not hand back are reclaimed when their leases expire.
   */
  @Override
  public synchronized void close() {
    CloseDeadline deadline = CloseDeadline.arm(parts.closeBudget(), parts::abortInUse);
    try {
      PostgresProgressStore progressStore = ownedProgress;
      ownedProgress = null;
      if (progressStore != null) {
        progressStore.close();
      }
      HikariDataSource pool = connections.releasePool();
      state = State.CLOSED;
      forgetHandles();
      parts.stop(pool);
    } finally {
      deadline.close();
    }
  }

  /**
   * Dies like a killed process ({@link TestHooks#crash()}, tests only; {@link RunningParts#crash}
   * says how).
   */
  private synchronized void crash() {
    HikariDataSource pool = connections.releasePool();
    state = State.CLOSED;
    forgetHandles();
    parts.crash(testHooks, pool);
  }

  private void forgetHandles() {
    chosenProgress = null;
    jobs = null;
    reclaimEvents = null;
    schedules = null;
    operations = null;
  }

  /**
   * {@return the readiness view of this process's maintenance (O7): {@code degraded} with its
   * reasons, and each sweep's last success and batch size} A process that is not the leader, has
   * not completed a sweep yet, or runs no maintenance reports {@code degraded=false} with the
   * reason {@value MaintenanceHealth#NO_SWEEP_YET}. Degraded is for operators to read, not a reason
   * to fail a liveness probe.
   */
  public MaintenanceHealth.Report health() {
    return parts.health();
  }

  /**
   * {@return whether {@link #start()} ran and {@link #close()} has not: the readiness probe's
   * state}
   */
  public boolean isRunning() {
    return state == State.STARTED;
  }

  /** {@return whether {@link #close()} was called} */
  public boolean isClosed() {
    return state == State.CLOSED;
  }

  /**
   * {@return whether this process is the schema's maintenance leader now (as of its last check,
   * O6)} Never waits on the database: it reads what the leader loop last proved (R1).
   */
  public boolean isLeader() {
    return parts.isLeader();
  }

  /** {@return the schema this TaskQ works in} */
  public SchemaName schema() {
    return config.schemaName();
  }

  /** {@return the settings this TaskQ runs with} */
  public TaskQConfig config() {
    return config;
  }

  /**
   * {@return this process's worker id (the {@code workers} row, {@code jobs.locked_by})}
   *
   * @throws IllegalStateException when not running
   */
  public synchronized String workerId() {
    return parts.worker(state).id();
  }

  /** Builds a {@link TaskQ}. */
  public static final class Builder {
    private @Nullable TaskQConfig config;
    private @Nullable DataSource dataSource;
    private @Nullable Executor executor;
    private boolean migrate = true;
    private boolean maintenance = true;
    private boolean inline;
    private boolean drainOnly;
    private boolean producer;
    private MaintenanceListener listener = MaintenanceListener.NONE;
    private final Map<String, Integer> queueCaps = new TreeMap<>();
    private final List<JobInterceptor> interceptors = new ArrayList<>();
    private final List<EnqueueInterceptor> enqueueInterceptors = new ArrayList<>();
    private @Nullable BiFunction<Actor.ActorRateLimit, RateLimiter, RateLimiter> rateLimiters;
    private @Nullable ProgressStore progress;
    private UnaryOperator<ProgressStore> overPostgres = UnaryOperator.identity();
    private JobListener jobListener = JobListener.NONE;
    private final List<Actor<?>> knownActors = new ArrayList<>();

    private Builder() {}

    /** K1: no actors, no worker, maintenance off unless asked for ({@link TaskQ#producer()}). */
    private Builder producer() {
      this.producer = true;
      this.maintenance = false;
      return this;
    }

    /**
     * At most {@code cap} jobs of {@code queue} run at once across every worker of the schema (L7),
     * enforced when a worker claims (a job over the cap stays pending, no attempt used). Every
     * process that runs the queue's jobs must declare the same cap. Actor and per-key caps are
     * declared on the {@link Actor}; {@code docs/concurrency-limits.md}.
     *
     * @param queue the queue's name
     * @param cap the most jobs of the queue running at once
     * @return this builder
     * @throws IllegalArgumentException for a bad queue name or a cap outside 1..10 000
     */
    public Builder queueConcurrency(String queue, int cap) {
      Actor.checkName("queue", queue);
      RedisKeys.requireStoreBound(queue);
      queueCaps.put(queue, Actor.checkCap("concurrency cap of queue '" + queue + "'", cap));
      return this;
    }

    /**
     * Makes the limiter each rate-limited actor's jobs wait for (M5), from the actor's declared
     * limit and the PostgreSQL limiter this root would keep it in: a {@code RedisRateLimiter} of
     * {@code taskq-redis}, say, whose unavailability policy falls back to that limiter, fails open
     * or fails closed (D14). Called once per rate-limited actor at {@link TaskQ#start()}. Default:
     * the PostgreSQL limiter, a sliding window (a token bucket or GCRA as the window that never
     * admits more; {@code docs/rate-limits.md}).
     *
     * @param factory makes the limiter of each declared limit, given the root's PostgreSQL one
     * @return this builder
     */
    public Builder rateLimiters(
        BiFunction<Actor.ActorRateLimit, RateLimiter, RateLimiter> factory) {
      this.rateLimiters = Objects.requireNonNull(factory, "rateLimiters");
      return this;
    }

    /**
     * Where handlers' progress goes and clients read it (M5), a store that needs no PostgreSQL
     * fallback; TaskQ does not close it. Default: the PostgreSQL store of the schema, owned and
     * closed by TaskQ. Replaces {@link #progress(UnaryOperator)}.
     *
     * @param store where handlers' progress goes and clients read it
     * @return this builder
     */
    public Builder progress(ProgressStore store) {
      this.progress = Objects.requireNonNull(store, "progress");
      this.overPostgres = UnaryOperator.identity();
      return this;
    }

    /**
     * Where handlers' progress goes and clients read it (M5), made over this root's PostgreSQL
     * store: {@code postgres -> RedisProgressStore.builder(redis).fallback(postgres).build()}, say
     * ({@code docs/progress.md}). Called once, on first use of {@link TaskQ#progress()}; TaskQ
     * closes the PostgreSQL store, not the one {@code store} returns. Replaces {@link
     * #progress(ProgressStore)}.
     *
     * @param store makes the store from the root's PostgreSQL one
     * @return this builder
     */
    public Builder progress(UnaryOperator<ProgressStore> store) {
      this.overPostgres = Objects.requireNonNull(store, "progress");
      this.progress = null;
      return this;
    }

    /**
     * The settings; default {@link TaskQConfig#fromEnv()}, read when {@link #build()} runs.
     *
     * @param config the settings; default {@link TaskQConfig#fromEnv()}, read when {@link #build()}
     *     runs
     * @return this builder
     */
    public Builder config(TaskQConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /**
     * The application's data source; without one TaskQ opens a pool from the configuration.
     *
     * @param dataSource the application's data source; without one TaskQ opens a pool from the
     *     configuration
     * @return this builder
     */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    /**
     * Runs handlers on {@code executor} (a virtual-thread executor on Java 21+, say) instead of a
     * pool TaskQ owns. TaskQ never shuts it down; at most {@code TASKQ_WORKER_CONCURRENCY} of its
     * tasks are TaskQ's at once.
     *
     * @param executor the executor that runs handlers
     * @return this builder
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Whether {@code start()} applies the schema migrations; default true. Turn off when the schema
     * is migrated with another tool (the plain-SQL files are in {@code sql/}).
     *
     * @param migrate whether {@code start()} applies the schema migrations; default true
     * @return this builder
     */
    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    /**
     * Whether this process campaigns for the schema's maintenance leadership and, when elected,
     * runs the sweeps; default true. Turn off in processes that must never lead (maintenance runs
     * in other processes of the fleet: at least one process per schema must keep it on, or expired
     * leases are never reclaimed and scheduled jobs never become due). A producer-only TaskQ
     * ({@link TaskQ#producer(DataSource)}) has it off unless set here.
     *
     * @param maintenance whether this process campaigns for the schema's maintenance leadership
     *     and, when elected, runs the sweeps; default true (false for a producer-only TaskQ)
     * @return this builder
     */
    public Builder maintenance(boolean maintenance) {
      this.maintenance = maintenance;
      return this;
    }

    /**
     * Adds an interceptor around each attempt of every actor this TaskQ registers (P6): outside the
     * actors' own interceptors, after the ones added before it. {@link JobInterceptor} states the
     * contract (order, exceptions, what it may change, cost). Default none.
     *
     * @param interceptor the interceptor to add
     * @return this builder
     */
    public Builder intercept(JobInterceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Adds an interceptor around every enqueue through {@link TaskQ#jobs()} (P6), batches included,
     * and around the fires of this TaskQ's cron loop, inside the ones added before it: the place to
     * stamp trace context or tenancy on the jobs as labels. {@link EnqueueInterceptor} states the
     * contract. Default none.
     *
     * @param interceptor the interceptor to add
     * @return this builder
     */
    public Builder interceptEnqueue(EnqueueInterceptor interceptor) {
      enqueueInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Inline mode, for fast tests of the code that enqueues (P5, {@code docs/testing.md}): {@link
     * TaskQ#start()} migrates but runs no worker and no maintenance, and each job enqueued through
     * {@link TaskQ#jobs()} runs in the enqueueing thread right after its transaction commits,
     * attempt after attempt (a retry's backoff is not waited out) until it ends, through the same
     * claim fencing, codec, handler, completion statement and stamped retry policy as a worker's
     * attempt. A job enqueued on the caller's connection runs at once in auto-commit mode; inside
     * the caller's transaction TaskQ cannot see the commit, so it runs at the next {@link
     * TaskQ#drain()}. Batches ({@code enqueueBatch}) and scheduled jobs also wait for a drain.
     * Handler failures are recorded on the job, never thrown to the enqueuer. Replaces {@link
     * #drainOnly()}. Default off.
     *
     * @return this builder
     */
    public Builder inline() {
      this.inline = true;
      this.drainOnly = false;
      return this;
    }

    /**
     * Drain-only mode, for tests that look at what was enqueued before anything runs (P5, {@code
     * docs/testing.md}): {@link TaskQ#start()} migrates but runs no worker and no maintenance, so a
     * job runs only when the test calls {@link TaskQ#drain()} or {@link
     * TaskQ#drainIncludingScheduled()}, in the test's thread. Replaces {@link #inline()}. Default
     * off.
     *
     * @return this builder
     */
    public Builder drainOnly() {
      this.drainOnly = true;
      this.inline = false;
      return this;
    }

    /**
     * Actors this process enqueues for but does not run (a producer-only process, say): the queue
     * each declares (R5) and its own retry policy (L3) are stamped into its jobs as the actors a
     * TaskQ registers are. Registering one of them as well is allowed; the registered one wins.
     *
     * @param actors the actors whose jobs this process enqueues but does not run
     * @return this builder
     */
    public Builder knownActors(Collection<? extends Actor<?>> actors) {
      for (Actor<?> actor : actors) {
        knownActors.add(Objects.requireNonNull(actor, "actor"));
      }
      return this;
    }

    /**
     * Receives the maintenance signals (sweep rows, durations, timeouts, batch sizes, leadership,
     * reclaims; O1-O6), e.g. a metrics binding; default none. Called on the maintenance threads:
     * keep it quick and non-blocking.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder listener(MaintenanceListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Receives the job lifecycle signals: enqueues through {@link TaskQ#jobs()} (after the commit;
     * on a caller's connection at statement time), each job's start with its pickup latency, its
     * success or failure with its execution time, and the lag of {@link TaskQ#reclaimEvents()}'s
     * polls; e.g. a metrics binding. Default none. Called on enqueueing, handler and watch threads:
     * keep it quick and non-blocking. Its exceptions are logged and dropped, never failing an
     * enqueue or a job.
     *
     * @param jobListener the listener
     * @return this builder
     */
    public Builder jobListener(JobListener jobListener) {
      this.jobListener = Objects.requireNonNull(jobListener, "jobListener");
      return this;
    }

    /**
     * Builds the TaskQ (not started; no connection is opened yet).
     *
     * @return the TaskQ
     * @throws io.taskq.TaskQConfigException when no config was given and the {@code TASKQ_*}
     *     environment is invalid
     * @throws IllegalArgumentException when neither a data source nor {@code TASKQ_DATABASE_URL} is
     *     given
     */
    public TaskQ build() {
      TaskQConfig resolved = config != null ? config : TaskQConfig.fromEnv();
      if (dataSource == null && resolved.databaseUrl().isEmpty()) {
        throw new IllegalArgumentException(
            "no database: pass the application's DataSource to TaskQ.builder(dataSource), or set"
                + " TASKQ_DATABASE_URL");
      }
      return new TaskQ(this, resolved);
    }
  }
}
