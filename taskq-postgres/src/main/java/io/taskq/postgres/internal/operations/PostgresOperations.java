package io.taskq.postgres.internal.operations;

import io.taskq.JobInfo;
import io.taskq.JobStatus;
import io.taskq.JobStoreException;
import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.operations.ActorBacklog;
import io.taskq.operations.ActorInfo;
import io.taskq.operations.BoundedCount;
import io.taskq.operations.DiscardResult;
import io.taskq.operations.JobCounts;
import io.taskq.operations.JobDetail;
import io.taskq.operations.JobFilter;
import io.taskq.operations.JobPage;
import io.taskq.operations.JobSummary;
import io.taskq.operations.LeaderInfo;
import io.taskq.operations.Operations;
import io.taskq.operations.Pause;
import io.taskq.operations.PauseTarget;
import io.taskq.operations.QueueInfo;
import io.taskq.operations.ReservationSlots;
import io.taskq.operations.RetryResult;
import io.taskq.operations.RetryWhereListener;
import io.taskq.operations.RetryWhereResult;
import io.taskq.operations.SweepHealth;
import io.taskq.postgres.internal.CallerText;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.client.Transactions;
import io.taskq.progress.Progress;
import io.taskq.progress.ProgressStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.LongFunction;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations API on PostgreSQL (A1-A4). Small statements run on a borrowed connection under the
 * client's statement timeout; the bulk retry drains through {@link RetryWhereDrain}.
 */
public final class PostgresOperations implements Operations {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresOperations.class);
  private static final int MAX_REASON_LENGTH = 1000;

  private final DataSource dataSource;
  private final SchemaName schema;
  private final NamedStatements sql;
  private final NamedStatements health;
  private final LongFunction<Optional<JobInfo>> finder;
  private final ProgressStore progress;
  private final int timeoutSeconds;
  private final String wakeChannel;
  private final RetryWhereDrain drain;
  private final Inventory inventory;

  /**
   * @param finder looks a job up by id (the jobs client's {@code find})
   * @param statementTimeout the bound of every small statement
   * @param batchSize {@code TASKQ_EVENT_WRITER_BATCH_SIZE}
   * @param batchTimeout {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}
   */
  public PostgresOperations(
      DataSource dataSource,
      SchemaName schema,
      LongFunction<Optional<JobInfo>> finder,
      ProgressStore progress,
      Duration statementTimeout,
      int batchSize,
      Duration batchTimeout) {
    this.dataSource = dataSource;
    this.schema = schema;
    this.sql = NamedStatements.load("io/taskq/postgres/sql/operations.sql", schema);
    this.health = NamedStatements.load("io/taskq/postgres/sql/sweep_health.sql", schema);
    this.finder = finder;
    this.progress = progress;
    this.timeoutSeconds = (int) Math.max(1, (statementTimeout.toMillis() + 999) / 1000);
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
    this.drain = new RetryWhereDrain(dataSource, schema, batchSize, batchTimeout);
    this.inventory = new Inventory(this);
  }

  /** Test seam of the bulk retry: fails batches after their statement, as a deadlock would. */
  public io.taskq.postgres.internal.FaultSeam retryWhereDeadlockSeam() {
    return drain.deadlockSeam();
  }

  @Override
  public JobPage search(JobFilter filter, int pageSize) {
    return search(filter, pageSize, Long.MAX_VALUE);
  }

  @Override
  public JobPage search(JobFilter filter, int pageSize, long cursor) {
    Objects.requireNonNull(filter, "filter");
    if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new IllegalArgumentException(
          "pageSize must be in 1.." + MAX_PAGE_SIZE + ", was " + pageSize);
    }
    SearchQuery query = SearchQuery.of(sql, filter, cursor, pageSize + 1);
    List<JobSummary> rows = read("search jobs", query::prepare, Rows::summary);
    if (rows.size() <= pageSize) {
      return new JobPage(rows, OptionalLong.empty());
    }
    List<JobSummary> page = rows.subList(0, pageSize);
    return new JobPage(page, OptionalLong.of(page.get(pageSize - 1).id()));
  }

  /** The text of the search statement for {@code filter} (the plan test EXPLAINs it). */
  public String searchSql(JobFilter filter) {
    return SearchQuery.of(sql, filter, Long.MAX_VALUE, 51).sql();
  }

  @Override
  public BoundedCount count(JobFilter filter, int atMost) {
    Objects.requireNonNull(filter, "filter");
    if (atMost < 1 || atMost > MAX_COUNT_BOUND) {
      throw new IllegalArgumentException(
          "atMost must be in 1.." + MAX_COUNT_BOUND + ", was " + atMost);
    }
    SearchQuery query = SearchQuery.countOf(sql, filter, atMost + 1);
    long n = read("count jobs", query::prepare, rs -> rs.getLong("n")).get(0);
    return n > atMost ? new BoundedCount(atMost, true) : new BoundedCount(n, false);
  }

  /** The text of the bounded count statement for {@code filter} (the plan test EXPLAINs it). */
  public String countSql(JobFilter filter) {
    return SearchQuery.countOf(sql, filter, 10_001).sql();
  }

  @Override
  public JobCounts counts() {
    return counts(false);
  }

  @Override
  public JobCounts counts(boolean includeArchive) {
    CountsBuilder counts = new CountsBuilder();
    countInto(counts, "counts");
    if (includeArchive) {
      countInto(counts, "counts_archive");
    }
    return counts.build(includeArchive);
  }

  private void countInto(CountsBuilder counts, String name) {
    String statement = sql.get(name);
    read(
        "count jobs",
        c -> c.prepareStatement(statement),
        rs -> {
          counts.add(
              JobStatus.fromDb(rs.getString("status")),
              rs.getString("queue"),
              rs.getString("actor"),
              rs.getLong("n"));
          return Boolean.TRUE;
        });
  }

  @Override
  public Optional<JobDetail> detail(long id) {
    Optional<JobInfo> job = finder.apply(id);
    if (job.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new JobDetail(
            job.get(),
            read("read attempts of job " + id, byId("attempts", id), Rows::attempt),
            read("read events of job " + id, byId("events", id), Rows::event),
            latestProgress(id)));
  }

  private Optional<Progress> latestProgress(long id) {
    try {
      return progress.latest(id);
    } catch (RuntimeException e) {
      LOG.warn("progress of job {} is unavailable: {}", id, e.toString());
      return Optional.empty();
    }
  }

  @Override
  public RetryResult retry(long id) {
    return retry(id, null, null);
  }

  @Override
  public RetryResult retry(long id, @Nullable Instant runAt, @Nullable String by) {
    return new SingleRetry(this).retry(id, runAt, note(by));
  }

  @Override
  public DiscardResult discard(long id, String reason, @Nullable String by) {
    Objects.requireNonNull(reason, "reason");
    String why = reason.strip();
    if (why.isEmpty()) {
      throw new IllegalArgumentException("a discard needs a reason (it is the event's note)");
    }
    if (why.length() > MAX_REASON_LENGTH) {
      throw new IllegalArgumentException(
          "a discard's reason is at most "
              + MAX_REASON_LENGTH
              + " characters, was "
              + why.length());
    }
    String named = CallerText.operator(by);
    String who = named == null ? "an operator" : named;
    List<DiscardResult> done =
        read(
            "discard job " + id,
            c -> {
              PreparedStatement ps = c.prepareStatement(sql.get("discard"));
              ps.setLong(1, id);
              ps.setString(2, "discarded by " + who + ": " + why);
              ps.setString(3, why);
              ps.setString(4, wakeChannel);
              return ps;
            },
            rs ->
                new DiscardResult(
                    id,
                    DiscardResult.Outcome.DISCARDED,
                    JobStatus.fromDb(rs.getString("status")),
                    Rows.instant(rs, "finished_at")));
    DiscardResult result = done.isEmpty() ? whyNotDiscarded(id) : done.get(0);
    LOG.info(
        "job {} in {}: discard by {} ({}): {}", id, schema.quoted(), who, why, result.outcome());
    return result;
  }

  private DiscardResult whyNotDiscarded(long id) {
    List<DiscardResult> state =
        read(
            "read the status of job " + id,
            c -> {
              PreparedStatement ps = c.prepareStatement(sql.get("job_state"));
              ps.setLong(1, id);
              ps.setLong(2, id);
              return ps;
            },
            rs -> {
              JobStatus status = JobStatus.fromDb(rs.getString("status"));
              DiscardResult.Outcome outcome =
                  rs.getBoolean("archived")
                      ? DiscardResult.Outcome.ARCHIVED
                      : status == JobStatus.RUNNING
                          ? DiscardResult.Outcome.RUNNING
                          : DiscardResult.Outcome.FINISHED;
              return new DiscardResult(id, outcome, status, null);
            });
    return state.isEmpty()
        ? new DiscardResult(id, DiscardResult.Outcome.NOT_FOUND, null, null)
        : state.get(0);
  }

  @Override
  public RetryWhereResult retryWhere(JobFilter filter) {
    return retryWhere(filter, RetryWhereListener.NONE);
  }

  @Override
  public RetryWhereResult retryWhere(JobFilter filter, RetryWhereListener listener) {
    return retryWhere(filter, null, listener);
  }

  @Override
  public RetryWhereResult retryWhere(
      JobFilter filter, @Nullable String by, RetryWhereListener listener) {
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(listener, "listener");
    if (!filter.isEverything() && !filter.narrows()) {
      throw new IllegalArgumentException(
          "an empty retry filter would retry every failed, crashed and cancelled job in the"
              + " schema; name at least one actor, queue, label, error class or time range, or"
              + " start from JobFilter.everything() to mean all");
    }
    List<String> statuses = RetryCriteria.statusesOf(filter);
    RetryCriteria criteria = start(filter, statuses, bulkNote(by));
    return drain.run(sql.get("retry_where"), criteria, wakeChannel, listener);
  }

  private RetryCriteria start(JobFilter filter, List<String> statuses, String note) {
    List<RetryCriteria> start =
        read(
            "start a bulk retry",
            c -> c.prepareStatement(sql.get("operation_start")),
            rs ->
                new RetryCriteria(
                    rs.getLong("max_id"), Rows.required(rs, "started_at"), statuses, filter, note));
    return start.get(0);
  }

  @Override
  public boolean pause(PauseTarget target, @Nullable String by, @Nullable String reason) {
    Objects.requireNonNull(target, "target");
    String who = CallerText.operator(by);
    boolean changed =
        changeOne(
            "pause " + target,
            sql.get("pause"),
            target.kind().dbValue(),
            target.name(),
            who,
            reason,
            wakeChannel);
    LOG.info(
        "{} in {} {} by {}: {}",
        target,
        schema.quoted(),
        changed ? "paused" : "was already paused",
        who,
        reason);
    return changed;
  }

  @Override
  public boolean resume(PauseTarget target) {
    return resume(target, null);
  }

  @Override
  public boolean resume(PauseTarget target, @Nullable String by) {
    Objects.requireNonNull(target, "target");
    String who = CallerText.operator(by);
    String statement = sql.get("resume");
    Optional<Pause> ended =
        read(
                "resume " + target,
                c -> {
                  PreparedStatement ps = c.prepareStatement(statement);
                  ps.setString(1, target.kind().dbValue());
                  ps.setString(2, target.name());
                  ps.setString(3, wakeChannel);
                  return ps;
                },
                rs ->
                    rs.getLong("changed") == 0
                        ? Optional.<Pause>empty()
                        : Optional.of(
                            new Pause(
                                target,
                                Rows.required(rs, "paused_at"),
                                rs.getString("paused_by"),
                                rs.getString("reason"))))
            .get(0);
    if (ended.isPresent()) {
      Pause p = ended.get();
      LOG.info(
          "{} in {} resumed by {} (paused by {} at {}: {})",
          target,
          schema.quoted(),
          who,
          p.pausedBy(),
          p.pausedAt(),
          p.reason());
    } else {
      LOG.info("{} in {} was not paused (resume by {})", target, schema.quoted(), who);
    }
    return ended.isPresent();
  }

  private boolean changeOne(String what, String statement, @Nullable String... binds) {
    List<Long> changed =
        read(
            what,
            c -> {
              PreparedStatement ps = c.prepareStatement(statement);
              for (int i = 0; i < binds.length; i++) {
                ps.setString(i + 1, binds[i]);
              }
              return ps;
            },
            rs -> rs.getLong("changed"));
    return changed.get(0) > 0;
  }

  @Override
  public List<Pause> paused() {
    return read(
        "read the paused queues and actors",
        c -> c.prepareStatement(sql.get("paused")),
        Rows::pause);
  }

  @Override
  public Map<String, BoundedCount> sweepBacklog() {
    Map<String, BoundedCount> out = new LinkedHashMap<>();
    read(
            "read the sweeps' backlog",
            c -> {
              PreparedStatement ps = c.prepareStatement(sql.get("sweep_backlog"));
              for (int i = 1; i <= 4; i++) {
                ps.setInt(i, SWEEP_BACKLOG_BOUND + 1);
              }
              return ps;
            },
            rs -> {
              long eligible = rs.getLong("eligible");
              return Map.entry(
                  rs.getString("sweep_name"),
                  new BoundedCount(
                      Math.min(eligible, SWEEP_BACKLOG_BOUND), eligible > SWEEP_BACKLOG_BOUND));
            })
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  @Override
  public List<ActorBacklog> actorBacklog() {
    return read(
        "read the actors' backlog",
        c -> c.prepareStatement(sql.get("actor_backlog")),
        rs ->
            new ActorBacklog(
                rs.getString("actor"),
                rs.getLong("depth"),
                Duration.ofNanos(Math.max(0, rs.getLong("oldest_us")) * 1000)));
  }

  @Override
  public List<ReservationSlots> reservationSlots() {
    return read(
        "read the reservation slots",
        c -> c.prepareStatement(sql.get("reservation_slots")),
        rs ->
            new ReservationSlots(
                rs.getString("kind"),
                rs.getString("name"),
                rs.getLong("held"),
                rs.getLong("capacity")));
  }

  @Override
  public List<QueueInfo> queues() {
    return inventory.queues();
  }

  @Override
  public List<ActorInfo> actors() {
    return inventory.actors();
  }

  @Override
  public Optional<LeaderInfo> leader() {
    long key = AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, schema).key();
    return read(
            "find the maintenance leader",
            c -> {
              PreparedStatement ps = c.prepareStatement(sql.get("leader"));
              ps.setLong(1, key);
              ps.setLong(2, key);
              return ps;
            },
            rs ->
                new LeaderInfo(
                    rs.getInt("pid"),
                    Objects.requireNonNullElse(rs.getString("application_name"), ""),
                    rs.getString("client_addr"),
                    Rows.instant(rs, "backend_start")))
        .stream()
        .findFirst();
  }

  @Override
  public SweepHealth sweepHealth() {
    LeaderInfo leader = leader().orElse(null);
    List<SweepRow> rows =
        read("read the sweep health", c -> c.prepareStatement(health.get("read")), SweepRow::of);
    Instant readAt = rows.isEmpty() ? databaseNow() : rows.get(0).readAt();
    List<SweepHealth.Sweep> sweeps = new ArrayList<>();
    for (SweepRow row : rows) {
      sweeps.add(row.sweep(leader));
    }
    return new SweepHealth(leader, readAt, sweeps);
  }

  private Instant databaseNow() {
    return read(
            "read the time",
            c -> c.prepareStatement("SELECT statement_timestamp() AS t"),
            rs -> Objects.requireNonNull(Rows.instant(rs, "t"), "t"))
        .get(0);
  }

  /** One {@code sweep_health} row and the read's database time. */
  private record SweepRow(SweepHealth.Sweep sweep, Instant readAt) {
    static SweepRow of(ResultSet rs) throws SQLException {
      Instant readAt = Objects.requireNonNull(Rows.instant(rs, "read_at"), "read_at");
      Instant writtenAt = Objects.requireNonNull(Rows.instant(rs, "written_at"), "written_at");
      Duration age = Duration.between(writtenAt, readAt);
      if (age.isNegative()) {
        age = Duration.ZERO;
      }
      Duration loop = Duration.ofMillis(rs.getLong("loop_period_ms"));
      int pid = rs.getInt("leader_pid");
      SweepHealth.Sweep sweep =
          new SweepHealth.Sweep(
              rs.getString("sweep_name"),
              rs.getString("sweep_id"),
              rs.getString("leader"),
              pid,
              Rows.instant(rs, "last_run_at"),
              Rows.instant(rs, "last_success_at"),
              Rows.instant(rs, "last_error_at"),
              rs.getString("last_error_class"),
              rs.getString("last_error_message"),
              SweepHealth.BreakerTier.valueOf(
                  rs.getString("breaker_tier").toUpperCase(java.util.Locale.ROOT)),
              rs.getInt("batch_size"),
              rs.getInt("batch_size_configured"),
              rs.getInt("consecutive_failures"),
              rs.getBoolean("stalled"),
              rs.getString("stall_reason"),
              loop,
              Duration.ofMillis(rs.getLong("expected_period_ms")),
              writtenAt,
              age,
              SweepHealth.Freshness.NO_LEADER);
      return new SweepRow(sweep, readAt);
    }

    SweepHealth.Sweep sweep(@Nullable LeaderInfo leader) {
      SweepHealth.Sweep s = sweep;
      return new SweepHealth.Sweep(
          s.name(),
          s.id(),
          s.writtenBy(),
          s.writtenByPid(),
          s.lastRun(),
          s.lastSuccess(),
          s.lastErrorAt(),
          s.lastErrorClass(),
          s.lastErrorMessage(),
          s.tier(),
          s.batchSize(),
          s.batchSizeConfigured(),
          s.consecutiveFailures(),
          s.stalled(),
          s.stallReason(),
          s.loopPeriod(),
          s.expectedPeriod(),
          s.writtenAt(),
          s.writtenAge(),
          SweepHealth.Sweep.freshness(leader, s.writtenByPid(), s.loopPeriod(), s.writtenAge()));
    }
  }

  @Override
  public Map<String, Long> failuresSince(Instant since) {
    return failuresSince(since, "failed_since", "queue");
  }

  @Override
  public Map<String, Long> actorFailuresSince(Instant since) {
    return failuresSince(since, "actor_failed_since", "actor");
  }

  private Map<String, Long> failuresSince(Instant since, String statement, String key) {
    Map<String, Long> out = new TreeMap<>();
    read(
        "count recent failures",
        c -> {
          PreparedStatement ps = c.prepareStatement(sql.get(statement));
          ps.setObject(1, OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
          return ps;
        },
        rs -> {
          out.put(rs.getString(key), rs.getLong("n"));
          return Boolean.TRUE;
        });
    return out;
  }

  /** Who asked, for the event's note. */
  private static String bulkNote(@Nullable String by) {
    String who = CallerText.operator(by);
    return who == null ? "bulk retry" : "retried by " + who + " (bulk retry)";
  }

  private static String note(@Nullable String by) {
    String who = CallerText.operator(by);
    return who == null ? "retried by hand" : "retried by " + who;
  }

  NamedStatements statements() {
    return sql;
  }

  String wakeChannel() {
    return wakeChannel;
  }

  SchemaName schema() {
    return schema;
  }

  private Prepare byId(String name, long id) {
    return c -> {
      PreparedStatement ps = c.prepareStatement(sql.get(name));
      ps.setLong(1, id);
      return ps;
    };
  }

  /** Prepares one statement with its binds. */
  @FunctionalInterface
  interface Prepare {
    PreparedStatement on(Connection c) throws SQLException;
  }

  /** Maps one row. */
  @FunctionalInterface
  interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  private <T> List<T> readOn(Connection c, Prepare prepare, RowMapper<T> mapper)
      throws SQLException {
    try (PreparedStatement ps = prepare.on(c)) {
      ps.setQueryTimeout(timeoutSeconds);
      List<T> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(mapper.map(rs));
        }
      }
      return out;
    }
  }

  /** Runs one read (or one single-statement write) and maps every row. */
  <T> List<T> read(String what, Prepare prepare, RowMapper<T> mapper) {
    try (Connection c = dataSource.getConnection()) {
      return Transactions.owned(c, false, conn -> readOn(conn, prepare, mapper));
    } catch (SQLException e) {
      throw new JobStoreException("cannot " + what + " in " + schema.quoted(), e);
    }
  }
}
