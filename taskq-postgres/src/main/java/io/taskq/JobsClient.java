package io.taskq;

import io.taskq.bulk.BatchInfo;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.BulkCancelResult;
import io.taskq.bulk.BulkOperationException;
import io.taskq.bulk.BulkProgressListener;
import io.taskq.bulk.CancelFilter;
import io.taskq.bulk.CancelResult;
import io.taskq.bulk.DeadlockRetriesExhaustedException;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.postgres.internal.CallerText;
import io.taskq.postgres.internal.GuardedJobListener;
import io.taskq.postgres.internal.StatementTimeouts;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.bulk.BulkOperations;
import io.taskq.postgres.internal.client.BatchWriter;
import io.taskq.postgres.internal.client.EnqueueChain;
import io.taskq.postgres.internal.client.JobInserter;
import io.taskq.postgres.internal.client.JobStatements;
import io.taskq.postgres.internal.client.Transactions;
import io.taskq.spi.JobListener;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Enqueues, looks up and cancels jobs in one schema (L2, L6, L8), enqueues batches with a
 * completion hook (L9, {@link #enqueueBatch(BatchRequest)}), and runs the operator's bulk
 * operations ({@link #cancelWhere(CancelFilter)}, {@link #deregisterActor(String, boolean)}; S13,
 * F1-F4). Thread-safe; holds no connection between calls.
 *
 * <p>Two ways to enqueue:
 *
 * <ul>
 *   <li>{@link #enqueue(JobRequest)} / {@link #enqueueAll(List)} borrow a connection from the data
 *       source and commit before returning;
 *   <li>{@link #enqueue(Connection, JobRequest)} / {@link #enqueueAll(Connection, List)} run on the
 *       caller's connection and neither commit, roll back nor close it: inside the caller's
 *       transaction the job exists if and only if the caller's work commits. If a call fails there,
 *       PostgreSQL has aborted the caller's transaction, which must be rolled back.
 * </ul>
 *
 * A batch of any size is one statement per {@value #BATCH_ROWS_PER_STATEMENT} rows, and its ids
 * come back in input order. Due jobs wake the workers with one {@code pg_notify} per queue on the
 * schema's wake channel, delivered when the transaction commits (D11).
 *
 * <p>Every statement runs under the client's statement timeout (a JDBC query timeout, so nothing is
 * set on the caller's session or transaction). Times (run-at of a delay, deadlines, unique windows)
 * come from the database clock.
 */
public final class JobsClient {
  /** Rows per insert statement of a batch. */
  public static final int BATCH_ROWS_PER_STATEMENT = JobInserter.CHUNK_ROWS;

  private final DataSource dataSource;
  private final SchemaName schema;
  private final JobInserter inserter;
  private final JobStatements statements;
  private final Function<String, Optional<RetryPolicy>> actorPolicies;
  private final Function<String, Optional<String>> actorQueues;
  private final BatchWriter batches;
  private final BulkOperations bulk;
  private final JobListener listener;
  private final Consumer<List<Long>> afterCommit;
  private final List<EnqueueInterceptor> enqueueInterceptors;

  @SuppressWarnings("UnusedVariable") // TestHooks.of(client) finds the drains' seams here
  private final TestHooks testHooks;

  private JobsClient(Builder b) {
    this.dataSource = b.dataSource;
    this.schema = b.schema;
    int timeoutSeconds = (int) Math.max(1, (b.statementTimeout.toMillis() + 999) / 1000);
    this.inserter = new JobInserter(schema, b.maxPayloadBytes, timeoutSeconds);
    this.statements = new JobStatements(schema, timeoutSeconds);
    this.actorPolicies = b.actorPolicies;
    this.actorQueues = b.actorQueues;
    this.batches = new BatchWriter(schema, inserter, timeoutSeconds);
    this.bulk = bulkOperations(b, timeoutSeconds);
    this.testHooks = b.testHooks;
    this.listener = GuardedJobListener.of(b.listener);
    this.afterCommit = b.afterCommit;
    this.enqueueInterceptors = List.copyOf(b.enqueueInterceptors);
  }

  private static BulkOperations bulkOperations(Builder b, int timeoutSeconds) {
    return new BulkOperations(
        b.dataSource,
        b.schema,
        b.eventWriterBatchSize,
        b.eventWriterStatementTimeout,
        timeoutSeconds,
        b.testHooks.bulkFaults());
  }

  /** A client with the knob catalog's defaults (tests). The schema must be migrated already. */
  static JobsClient create(DataSource dataSource, SchemaName schema) {
    return builder(dataSource, schema).build();
  }

  /**
   * A client configured from {@code config}: its schema ({@code TASKQ_SCHEMA_NAME}), payload limit
   * ({@code TASKQ_MAX_PAYLOAD_BYTES}), bulk batches ({@code TASKQ_EVENT_WRITER_*}), and the
   * statement timeout kept at or below the socket timeout ({@code TASKQ_SOCKET_TIMEOUT}, D10). The
   * TaskQ root builds its client so ({@link TaskQ#jobs()}).
   */
  static JobsClient create(DataSource dataSource, TaskQConfig config) {
    return configured(dataSource, config).build();
  }

  /** A builder preset from {@code config}, as {@link #create(DataSource, TaskQConfig)} uses. */
  static Builder configured(DataSource dataSource, TaskQConfig config) {
    return new Builder(dataSource, config.schemaName(), config);
  }

  /** D10: the statement timeout, kept at or below {@code TASKQ_SOCKET_TIMEOUT}. */
  static Duration statementTimeout(TaskQConfig config) {
    return StatementTimeouts.of(config);
  }

  /** A builder for a client of {@code schema}, preset from the knob catalog's defaults (tests). */
  static Builder builder(DataSource dataSource, SchemaName schema) {
    return new Builder(dataSource, schema, TaskQConfig.defaults());
  }

  /** {@return the schema this client works in} */
  public SchemaName schema() {
    return schema;
  }

  /**
   * Enqueues one job and commits it.
   *
   * @param request the job to enqueue
   * @return the job's id; for a {@code unique_for} request whose twin is live, the twin's id
   * @throws IllegalArgumentException when the payload is over the client's limit (nothing sent)
   * @throws JobStoreException when the database call fails
   */
  public long enqueue(JobRequest request) {
    return enqueueAll(List.of(request)).get(0);
  }

  /**
   * Enqueues a batch in one transaction: all jobs or none.
   *
   * @param requests the jobs to enqueue
   * @return the ids in the order of {@code requests}
   */
  public List<Long> enqueueAll(List<JobRequest> requests) {
    if (enqueueInterceptors.isEmpty() || requests.isEmpty()) {
      return insertOwned(requests);
    }
    return EnqueueChain.run(
        enqueueInterceptors,
        EnqueueInterceptor.Kind.JOBS,
        withActorPolicies(requests),
        false,
        this::insertOwned);
  }

  private List<Long> insertOwned(List<JobRequest> requests) {
    boolean atomic = inserter.validate(requests);
    if (requests.isEmpty()) {
      return List.of();
    }
    List<JobRequest> stamped = withActorPolicies(requests);
    List<Long> ids;
    try (Connection c = dataSource.getConnection()) {
      ids = Transactions.owned(c, atomic, conn -> inserter.insert(conn, stamped));
    } catch (SQLException e) {
      throw failure("enqueue", requests.size(), e);
    }
    enqueued(requests);
    afterCommit.accept(ids);
    return ids;
  }

  /**
   * Enqueues one job on the caller's connection, inside the caller's transaction when one is open
   * (auto-commit off): it commits or rolls back with the caller's work. The connection is neither
   * committed, rolled back nor closed. In auto-commit mode the job is committed at once.
   *
   * @param connection the caller's connection
   * @param request the job to enqueue
   * @return the job's id (for a {@code unique_for} request whose twin is live, the twin's)
   */
  public long enqueue(Connection connection, JobRequest request) {
    return enqueueAll(connection, List.of(request)).get(0);
  }

  /**
   * Enqueues a batch on the caller's connection; see {@link #enqueue(Connection, JobRequest)}.
   *
   * @param connection the caller's connection
   * @param requests the jobs to enqueue
   * @return the ids in the order of {@code requests}
   */
  public List<Long> enqueueAll(Connection connection, List<JobRequest> requests) {
    Objects.requireNonNull(connection, "connection");
    if (enqueueInterceptors.isEmpty() || requests.isEmpty()) {
      return insertBorrowed(connection, requests);
    }
    return EnqueueChain.run(
        enqueueInterceptors,
        EnqueueInterceptor.Kind.JOBS,
        withActorPolicies(requests),
        true,
        changed -> insertBorrowed(connection, changed));
  }

  private List<Long> insertBorrowed(Connection connection, List<JobRequest> requests) {
    boolean atomic = inserter.validate(requests);
    if (requests.isEmpty()) {
      return List.of();
    }
    List<JobRequest> stamped = withActorPolicies(requests);
    List<Long> ids;
    try {
      ids = Transactions.borrowed(connection, atomic, conn -> inserter.insert(conn, stamped));
      if (connection.getAutoCommit()) {
        enqueued(requests);
        afterCommit.accept(ids);
        return ids;
      }
    } catch (SQLException e) {
      throw failure("enqueue", requests.size(), e);
    }
    enqueued(requests);
    return ids;
  }

  /**
   * Counts an enqueue for the listener ({@code taskq.jobs.enqueued}), once its statements
   * succeeded: after the commit on the client's own connection; at statement time on the caller's,
   * because the client cannot see the caller's commit (docs/observability.md).
   */
  private void enqueued(List<JobRequest> requests) {
    GuardedJobListener.enqueued(listener, requests, JobRequest::actor, JobRequest::queue);
  }

  /**
   * {@return the job with {@code id} in this schema (also once archived), or empty}
   *
   * @param id the job's id
   */
  public Optional<JobInfo> find(long id) {
    try (Connection c = dataSource.getConnection()) {
      return statements.find(c, id);
    } catch (SQLException e) {
      throw new JobStoreException("cannot look up job " + id + " in " + schema.quoted(), e);
    }
  }

  /**
   * Cancels one job (L8) without naming who asked; see {@link #cancel(long, String)}.
   *
   * @param id the job's id
   * @return what the call did to the job
   */
  public CancelResult cancel(long id) {
    return cancel(id, null);
  }

  /**
   * Cancels one job (L8), naming who asked: a scheduled or pending job becomes {@code cancelled} at
   * once, with its {@code cancelled} event in the same transaction, whose note is {@code "cancelled
   * by <by>"} (no note when {@code by} is null or blank), as {@link #cancelWhere(CancelFilter,
   * String, BulkProgressListener)} notes a bulk cancel. A running job gets a cancel request its
   * handler can observe, with a {@code cancel_requested} event in the same transaction whose note
   * is {@code "cancel requested by <by>"} (none when {@code by} is null or blank); the {@code
   * cancelled} event its worker writes when the handler stops follows it. A second cancel of a
   * running job whose cancel is already requested changes nothing and writes no event (the first
   * request keeps its time and author) and again answers {@link CancelResult#CANCEL_REQUESTED}.
   *
   * @param id the job's id
   * @param by who cancels (an operator's name, for the audit trail), or {@code null}
   * @return what the call did to the job
   */
  public CancelResult cancel(long id, @Nullable String by) {
    try (Connection c = dataSource.getConnection()) {
      return Transactions.owned(c, false, conn -> statements.cancel(conn, id, by));
    } catch (SQLException e) {
      throw new JobStoreException("cannot cancel job " + id + " in " + schema.quoted(), e);
    }
  }

  /** {@link #withActorPolicies(List)} for a batch's members and its hook template. */
  private BatchRequest withActorPolicies(BatchRequest request) {
    List<JobRequest> members = withActorPolicies(request.members());
    JobRequest hook = request.hook();
    JobRequest stampedHook = hook == null ? null : withActorPolicies(List.of(hook)).get(0);
    if (members == request.members() && stampedHook == hook) {
      return request;
    }
    BatchRequest stamped = BatchRequest.of(members);
    return stampedHook == null ? stamped : stamped.onComplete(stampedHook);
  }

  /**
   * L3: the policy stamped into each job is the request's own when it names one, else its actor's
   * ({@code Actor.retryPolicy()}), else {@link RetryPolicy#defaults()}.
   */
  private List<JobRequest> withActorPolicies(List<JobRequest> requests) {
    List<JobRequest> stamped = null;
    for (int i = 0; i < requests.size(); i++) {
      JobRequest r = requests.get(i);
      JobRequest s = withActorDefaults(r);
      if (s != r) {
        if (stamped == null) {
          stamped = new ArrayList<>(requests);
        }
        stamped.set(i, s);
      }
    }
    return stamped == null ? requests : stamped;
  }

  /** R5 and L3: the actor's queue and retry policy where the request names neither. */
  private JobRequest withActorDefaults(JobRequest r) {
    JobRequest s = r;
    if (!s.namesQueue()) {
      Optional<String> queue = actorQueues.apply(r.actor());
      if (queue.isPresent()) {
        s = s.withDefaultQueue(queue.get());
      }
    }
    if (!s.namesRetryPolicy()) {
      Optional<RetryPolicy> policy = actorPolicies.apply(r.actor());
      if (policy.isPresent()) {
        s = s.withDefaultRetryPolicy(policy.get());
      }
    }
    return s;
  }

  /**
   * Enqueues a batch (L9) in one transaction: the batch row with its completion hook, and every
   * member, all or nothing. When the last member reaches a terminal status, the transaction that
   * makes it terminal completes the batch and enqueues the hook, exactly once.
   *
   * @param request the batch to enqueue
   * @return the batch's id and its members' ids
   * @throws IllegalArgumentException when a payload (a member's or the hook's) is over the limit
   * @throws JobStoreException when the database call fails
   */
  public EnqueuedBatch enqueueBatch(BatchRequest request) {
    return intercepted(request, false, this::insertBatchOwned);
  }

  private EnqueuedBatch insertBatchOwned(BatchRequest request) {
    validate(request);
    BatchRequest stamped = withActorPolicies(request);
    EnqueuedBatch batch;
    try (Connection c = dataSource.getConnection()) {
      batch = Transactions.owned(c, true, conn -> batches.insert(conn, stamped));
    } catch (SQLException e) {
      throw failure("enqueue a batch of", request.members().size(), e);
    }
    enqueued(request.members());
    return batch;
  }

  /**
   * Enqueues a batch on the caller's connection, inside the caller's transaction when one is open:
   * the batch and its members exist if and only if the caller's work commits. See {@link
   * #enqueue(Connection, JobRequest)}.
   *
   * @param connection the caller's connection
   * @param request the batch to enqueue
   * @return the batch's id and its members' ids
   */
  public EnqueuedBatch enqueueBatch(Connection connection, BatchRequest request) {
    Objects.requireNonNull(connection, "connection");
    return intercepted(request, true, r -> insertBatchBorrowed(connection, r));
  }

  private EnqueuedBatch insertBatchBorrowed(Connection connection, BatchRequest request) {
    validate(request);
    BatchRequest stamped = withActorPolicies(request);
    EnqueuedBatch batch;
    try {
      batch = Transactions.borrowed(connection, true, conn -> batches.insert(conn, stamped));
    } catch (SQLException e) {
      throw failure("enqueue a batch of", request.members().size(), e);
    }
    enqueued(request.members());
    return batch;
  }

  /**
   * P6: a batch through the enqueue interceptors ({@link EnqueueInterceptor.Kind#BATCH}): its
   * members, then its hook's template, as one list; the changed list is a batch again (checked by
   * {@link BatchRequest}'s rules) before {@code insert}.
   */
  private EnqueuedBatch intercepted(
      BatchRequest request,
      boolean onCallerConnection,
      Function<BatchRequest, EnqueuedBatch> insert) {
    Objects.requireNonNull(request, "request");
    if (enqueueInterceptors.isEmpty()) {
      return insert.apply(request);
    }
    BatchRequest stamped = withActorPolicies(request);
    List<JobRequest> jobs = new ArrayList<>(stamped.members());
    JobRequest hook = stamped.hook();
    if (hook != null) {
      jobs.add(hook);
    }
    int members = stamped.members().size();
    EnqueuedBatch[] inserted = new EnqueuedBatch[1];
    EnqueueChain.run(
        enqueueInterceptors,
        EnqueueInterceptor.Kind.BATCH,
        jobs,
        onCallerConnection,
        changed -> {
          BatchRequest again = BatchRequest.of(changed.subList(0, members));
          if (hook != null) {
            again = again.onComplete(changed.get(members));
          }
          EnqueuedBatch batch = insert.apply(again);
          inserted[0] = batch;
          return batch.jobIds();
        });
    EnqueuedBatch batch = inserted[0];
    if (batch == null) {
      throw new IllegalStateException(
          "an enqueue interceptor returned without proceeding; a batch cannot be skipped");
    }
    return batch;
  }

  private void validate(BatchRequest request) {
    Objects.requireNonNull(request, "request");
    inserter.validate(request.members());
    JobRequest hook = request.hook();
    if (hook != null) {
      inserter.validate(List.of(hook));
    }
  }

  /**
   * {@return the batch with {@code id} in this schema, or empty}
   *
   * @param id the batch's id
   */
  public Optional<BatchInfo> findBatch(long id) {
    try (Connection c = dataSource.getConnection()) {
      return batches.find(c, id);
    } catch (SQLException e) {
      throw new JobStoreException("cannot look up batch " + id + " in " + schema.quoted(), e);
    }
  }

  /**
   * Cancels every job {@code filter} matches (S13, F1-F3); see {@link #cancelWhere(CancelFilter,
   * BulkProgressListener)}.
   *
   * @param filter which jobs to cancel
   * @return the jobs cancelled and asked to cancel
   */
  public BulkCancelResult cancelWhere(CancelFilter filter) {
    return cancelWhere(filter, BulkProgressListener.NONE);
  }

  /**
   * Cancels every job {@code filter} matches (S13, F1-F3), in committed batches of {@code
   * TASKQ_EVENT_WRITER_BATCH_SIZE} jobs, each under {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}
   * with its {@code job_events} rows in the same transaction. Scheduled and pending jobs become
   * {@code cancelled}; running jobs get a cancel request. Only jobs that exist when the call starts
   * are matched. {@code listener} hears of every committed batch (D16).
   *
   * <p>A failure leaves every committed batch in place and is thrown as a {@link
   * BulkOperationException} carrying the progress; calling again continues where it stopped. A
   * batch that deadlocks is retried (3 attempts in all, backoff with jitter); when all fail, {@link
   * DeadlockRetriesExhaustedException}.
   *
   * @param filter which jobs to cancel
   * @param listener told after each committed batch
   * @return the jobs cancelled and asked to cancel
   */
  public BulkCancelResult cancelWhere(CancelFilter filter, BulkProgressListener listener) {
    return cancelWhere(filter, null, listener);
  }

  /**
   * Cancels every job {@code filter} matches exactly like {@link #cancelWhere(CancelFilter,
   * BulkProgressListener)}, naming who asked: each {@code cancelled} event's note is {@code
   * "cancelled by <by> (bulk cancel)"} ({@code "bulk cancel"} when {@code by} is null or blank),
   * and the operation's log lines name {@code by}. A running job's cancel request is recorded as a
   * {@code cancel_requested} event noting {@code "cancel requested by <by> (bulk cancel)"}, as
   * {@link #cancel(long, String)} records one; the {@code cancelled} event its worker writes when
   * the handler stops follows it.
   *
   * @param filter which jobs to cancel
   * @param by who cancels (an operator's name, for the audit trail), or {@code null}
   * @param listener told after each committed batch
   * @return the jobs cancelled and asked to cancel
   */
  public BulkCancelResult cancelWhere(
      CancelFilter filter, @Nullable String by, BulkProgressListener listener) {
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(listener, "listener");
    return bulk.cancelWhere(filter, by, listener);
  }

  /**
   * Deregisters {@code actor} (F4); see {@link #deregisterActor(String, boolean, boolean,
   * BulkProgressListener)}, without a queue purge.
   *
   * @param name the actor's name
   * @param force true to cancel its open jobs first
   * @return what the deregistration did
   */
  public DeregistrationResult deregisterActor(String name, boolean force) {
    return deregisterActor(name, force, false, BulkProgressListener.NONE);
  }

  /**
   * Deregisters {@code actor} (S13, F4).
   *
   * <p>Without {@code force}, refuses with {@link ActorBusyException} while the actor has any
   * scheduled, pending or running job. With {@code force}, refuses while it has running jobs, then
   * cancels its scheduled and pending jobs in committed batches exactly like {@link #cancelWhere}.
   * Either way it ends with one small transaction: the actor's cron schedules are disabled (when
   * the schema has cron schedules), its {@code actor_config} row is deleted, its finished jobs are
   * counted (they stay as history until prune), and with {@code purgeQueue} the free
   * concurrency-limit slots of the actor (actor and keyed caps), and of its queue when no other
   * registered actor serves it, are deleted. Jobs enqueued for the actor afterwards are not
   * refused; a worker that still registers it re-creates its {@code actor_config} row.
   *
   * @param name the actor's name
   * @param force true to cancel its open jobs first
   * @param purgeQueue true to also delete the actor's free concurrency-limit slots
   * @param listener told after each committed batch
   * @return what the deregistration did
   */
  public DeregistrationResult deregisterActor(
      String name, boolean force, boolean purgeQueue, BulkProgressListener listener) {
    String actor =
        CallerText.requireName(
            "actor", Objects.requireNonNull(name, "actor"), JobRequest.MAX_NAME_CHARS);
    Objects.requireNonNull(listener, "listener");
    return bulk.deregisterActor(actor, force, purgeQueue, listener);
  }

  private JobStoreException failure(String what, int jobs, SQLException e) {
    return new JobStoreException(
        "cannot " + what + " " + jobs + (jobs == 1 ? " job" : " jobs") + " in " + schema.quoted(),
        e);
  }

  /**
   * Settings of a {@link JobsClient}, preset from a {@link TaskQConfig}; each setter validates its
   * argument at once.
   */
  static final class Builder {
    private final DataSource dataSource;
    private final SchemaName schema;
    private long maxPayloadBytes;
    private Duration statementTimeout;
    private Function<String, Optional<RetryPolicy>> actorPolicies = actor -> Optional.empty();
    private Function<String, Optional<String>> actorQueues = actor -> Optional.empty();
    private int eventWriterBatchSize;
    private Duration eventWriterStatementTimeout;
    private JobListener listener = JobListener.NONE;
    private Consumer<List<Long>> afterCommit = ids -> {};
    private final List<EnqueueInterceptor> enqueueInterceptors = new ArrayList<>();
    private TestHooks testHooks = TestHooks.detached();

    private Builder(DataSource dataSource, SchemaName schema, TaskQConfig config) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      this.schema = Objects.requireNonNull(schema, "schema");
      this.maxPayloadBytes = config.maxPayloadBytes();
      this.statementTimeout = StatementTimeouts.of(config);
      this.eventWriterBatchSize = config.eventWriterBatchSize();
      this.eventWriterStatementTimeout = config.eventWriterStatementTimeout();
    }

    /**
     * The largest payload accepted, in UTF-8 bytes; a larger one fails with an {@link
     * IllegalArgumentException} before reaching the database. 1 to 256 MiB; preset from {@code
     * TASKQ_MAX_PAYLOAD_BYTES}.
     */
    Builder maxPayloadBytes(long bytes) {
      if (bytes < 1 || bytes > 256L << 20) {
        throw new IllegalArgumentException(
            "maxPayloadBytes must be in [1, " + (256L << 20) + "], was " + bytes);
      }
      this.maxPayloadBytes = bytes;
      return this;
    }

    /**
     * The longest any one statement of the client may run, lock waits included, rounded up to whole
     * seconds; 1 s to 1 h. Preset per D10. Keep it below the connection's socket timeout.
     */
    Builder statementTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "statementTimeout");
      if (timeout.compareTo(Duration.ofSeconds(1)) < 0
          || timeout.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException(
            "statementTimeout must be in [PT1S, PT1H], was " + timeout);
      }
      this.statementTimeout = timeout;
      return this;
    }

    /**
     * The actors whose own retry policy ({@code Actor.retryPolicy()}) is stamped into their jobs
     * when a request names none (L3: request policy, then actor policy, then {@link
     * RetryPolicy#defaults()}). A {@code TaskQ}'s client knows its registered actors already.
     *
     * @param actors the registered actors
     * @return this builder
     */
    Builder actors(Collection<? extends Actor<?>> actors) {
      Map<String, RetryPolicy> policies = new HashMap<>();
      Map<String, String> queues = new HashMap<>();
      for (Actor<?> actor : actors) {
        actor.retryPolicy().ifPresent(p -> policies.put(actor.name(), p));
        queues.put(actor.name(), actor.queue());
      }
      actorQueues(name -> Optional.ofNullable(queues.get(name)));
      return actorPolicies(name -> Optional.ofNullable(policies.get(name)));
    }

    /** The actor queue lookup (R5; a {@code TaskQ} passes a live view of its actors). */
    Builder actorQueues(Function<String, Optional<String>> lookup) {
      this.actorQueues = Objects.requireNonNull(lookup, "actorQueues");
      return this;
    }

    /** The actor policy lookup (a {@code TaskQ} passes a live view of its registered actors). */
    Builder actorPolicies(Function<String, Optional<RetryPolicy>> lookup) {
      this.actorPolicies = Objects.requireNonNull(lookup, "actorPolicies");
      return this;
    }

    /**
     * Rows per committed batch of a bulk operation ({@code TASKQ_EVENT_WRITER_BATCH_SIZE}); 1 to 10
     * 000. Preset from the config.
     */
    Builder eventWriterBatchSize(int rows) {
      if (rows < 1 || rows > 10_000) {
        throw new IllegalArgumentException(
            "eventWriterBatchSize must be in [1, 10000], was " + rows);
      }
      this.eventWriterBatchSize = rows;
      return this;
    }

    /**
     * The server-side statement timeout of each batch of a bulk operation ({@code
     * TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}); 1 ms to 1 h. Preset from the config.
     */
    Builder eventWriterStatementTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "eventWriterStatementTimeout");
      if (timeout.compareTo(Duration.ofMillis(1)) < 0
          || timeout.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException(
            "eventWriterStatementTimeout must be in [PT0.001S, PT1H], was " + timeout);
      }
      this.eventWriterStatementTimeout = timeout;
      return this;
    }

    /** The test hooks whose seams the client's drains check: its root's; default its own. */
    Builder testHooks(TestHooks hooks) {
      this.testHooks = Objects.requireNonNull(hooks, "testHooks");
      return this;
    }

    /**
     * Receives {@code jobsEnqueued} for every successful enqueue, per actor and queue (a metrics
     * binding, say). Its exceptions are logged and dropped, never failing the enqueue.
     *
     * <p>Default: none.
     *
     * @param listener the listener
     * @return this builder
     */
    Builder listener(JobListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Adds an interceptor around every {@code enqueue}, {@code enqueueAll} and {@code enqueueBatch}
     * of this client (P6), inside the ones added before it. {@link EnqueueInterceptor} states the
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
     * Told the ids of every enqueue this client committed itself (its own transaction, or the
     * caller's connection in auto-commit mode), on the enqueueing thread: TaskQ's inline mode.
     */
    Builder afterCommit(Consumer<List<Long>> hook) {
      this.afterCommit = Objects.requireNonNull(hook, "afterCommit");
      return this;
    }

    JobsClient build() {
      return new JobsClient(this);
    }
  }
}
