package io.taskq.postgres.internal.client;

import io.taskq.JobRequest;
import io.taskq.RetryPolicy;
import io.taskq.postgres.internal.JsonWriter;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code insert_jobs} statement's parameters, dictionary-encoded: the distinct option sets of
 * the batch (actor, queue, priority, labels, timing, retry policy, deadline, unique key,
 * concurrency key, attempt timeout) as one array per option, and per job only its payload and the
 * (1-based) number of its option set.
 *
 * <p>Why: a bulk enqueue almost always gives every job the same options, and parsing fifteen
 * thousand-element arrays cost the server more than inserting the rows (the batch then ran at about
 * half the speed of a plain multi-row INSERT). Now such a batch sends one option set and two
 * per-job arrays, and the options' expressions (times, labels as {@code jsonb}) are evaluated once
 * per set, not once per job. A batch of all-different jobs sends as many sets as jobs, which costs
 * what one array per column did. The statement text stays fixed whatever the batch, so PostgreSQL
 * plans it once.
 *
 * <p>A chunk with one option set and no unique key, the common case, is bound for the cheaper
 * {@code insert_jobs_one_set} instead ({@link #bindOneSet}): the options as scalars, the payloads
 * as one array.
 */
final class EnqueueColumns {
  /** Option arrays, then the payloads and each job's option set. */
  static final int PARAMETERS = 18;

  /**
   * The {@code insert_jobs_one_set} statement's parameters: the options, the wake channel, then the
   * payloads.
   */
  static final int ONE_SET_PARAMETERS = 16;

  private final List<Options> sets = new ArrayList<>();
  private final List<Integer> firstRowOfSet = new ArrayList<>();
  private final String[] payload;
  private final Integer[] set;

  EnqueueColumns(List<JobRequest> rows) {
    int n = rows.size();
    payload = new String[n];
    set = new Integer[n];
    Map<Options, Integer> numbers = new HashMap<>();
    Map<Map<String, String>, String> labelsJson = new HashMap<>();
    Options previous = null;
    for (int i = 0; i < n; i++) {
      JobRequest r = rows.get(i);
      payload[i] = r.payloadJson();
      Options options = Options.of(r, labelsJson);
      if (options.equals(previous)) {
        // The common bulk case, a run of jobs with the same options: no hash lookup.
        set[i] = set[i - 1];
        continue;
      }
      previous = options;
      Integer number = numbers.get(options);
      if (number == null) {
        sets.add(options);
        firstRowOfSet.add(i);
        number = sets.size();
        numbers.put(options, number);
      }
      set[i] = number;
    }
  }

  /**
   * Whether {@code insert_jobs_one_set} can take these jobs: they share one option set and it has
   * no unique key (a keyed job needs the twin lookup of {@code insert_jobs}).
   */
  boolean oneSetWithoutUniqueKey() {
    return sets.size() == 1 && sets.get(0).uniqueKey() == null;
  }

  /**
   * Binds the one option set as scalars, the wake channel, and the payloads as an array: parameters
   * 1 to {@value #ONE_SET_PARAMETERS} of {@code insert_jobs_one_set}.
   */
  void bindOneSet(PreparedStatement ps, String wakeChannel) throws SQLException {
    Options o = sets.get(0);
    ps.setString(1, o.actor());
    ps.setString(2, o.queue());
    ps.setInt(3, o.priority());
    ps.setString(4, o.labelsJson());
    ps.setInt(5, o.maxAttempts());
    ps.setString(6, o.backoff());
    ps.setLong(7, o.baseMs());
    ps.setLong(8, o.capMs());
    ps.setDouble(9, o.jitter());
    setNullable(ps, 10, o.concurrencyKey(), Types.VARCHAR);
    setNullable(ps, 11, o.runAt(), Types.VARCHAR);
    setNullable(ps, 12, o.delayMicros(), Types.BIGINT);
    setNullable(ps, 13, o.deadlineMicros(), Types.BIGINT);
    setNullable(ps, 14, o.attemptTimeoutMs(), Types.BIGINT);
    ps.setString(15, wakeChannel);
    ps.setObject(16, payload);
  }

  private static void setNullable(PreparedStatement ps, int index, @Nullable Object value, int type)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, type);
    } else {
      ps.setObject(index, value, type);
    }
  }

  /** The distinct option sets: 1 when every job of the batch has the same options. */
  int optionSets() {
    return sets.size();
  }

  /**
   * The row (0-based, in this chunk) of the first job with option set {@code number} (1-based); for
   * a set with a unique key, its only job.
   */
  int rowOfSet(long number) {
    return firstRowOfSet.get(Math.toIntExact(number - 1));
  }

  /** Binds the {@value #PARAMETERS} arrays as parameters 1 to {@value #PARAMETERS}. */
  void bind(PreparedStatement ps) throws SQLException {
    int k = sets.size();
    String[] actor = new String[k];
    String[] queue = new String[k];
    Integer[] priority = new Integer[k];
    String[] labels = new String[k];
    @Nullable String[] runAt = new String[k];
    @Nullable Long[] delayMicros = new Long[k];
    Integer[] maxAttempts = new Integer[k];
    String[] backoff = new String[k];
    Long[] baseMs = new Long[k];
    Long[] capMs = new Long[k];
    Double[] jitter = new Double[k];
    @Nullable Long[] deadlineMicros = new Long[k];
    @Nullable String[] uniqueKey = new String[k];
    @Nullable Long[] uniqueMicros = new Long[k];
    @Nullable String[] concurrencyKey = new String[k];
    @Nullable Long[] attemptTimeoutMs = new Long[k];
    for (int i = 0; i < k; i++) {
      Options o = sets.get(i);
      actor[i] = o.actor();
      queue[i] = o.queue();
      priority[i] = o.priority();
      labels[i] = o.labelsJson();
      runAt[i] = o.runAt();
      delayMicros[i] = o.delayMicros();
      maxAttempts[i] = o.maxAttempts();
      backoff[i] = o.backoff();
      baseMs[i] = o.baseMs();
      capMs[i] = o.capMs();
      jitter[i] = o.jitter();
      deadlineMicros[i] = o.deadlineMicros();
      uniqueKey[i] = o.uniqueKey();
      uniqueMicros[i] = o.uniqueMicros();
      concurrencyKey[i] = o.concurrencyKey();
      attemptTimeoutMs[i] = o.attemptTimeoutMs();
    }
    Object[] columns = {
      actor,
      queue,
      priority,
      labels,
      runAt,
      delayMicros,
      maxAttempts,
      backoff,
      baseMs,
      capMs,
      jitter,
      deadlineMicros,
      uniqueKey,
      uniqueMicros,
      concurrencyKey,
      attemptTimeoutMs,
      payload,
      set
    };
    for (int i = 0; i < columns.length; i++) {
      ps.setObject(i + 1, columns[i]);
    }
  }

  /** Everything of a request but its payload, as the statement receives it. */
  private record Options(
      String actor,
      String queue,
      int priority,
      String labelsJson,
      @Nullable String runAt,
      @Nullable Long delayMicros,
      int maxAttempts,
      String backoff,
      long baseMs,
      long capMs,
      double jitter,
      @Nullable Long deadlineMicros,
      @Nullable String uniqueKey,
      @Nullable Long uniqueMicros,
      @Nullable String concurrencyKey,
      @Nullable Long attemptTimeoutMs) {
    static Options of(JobRequest r, Map<Map<String, String>, String> labelsJson) {
      Instant at = r.runAt();
      RetryPolicy policy = r.retryPolicy();
      return new Options(
          r.actor(),
          r.queue(),
          r.priority(),
          r.labels().isEmpty() ? "{}" : labelsJson.computeIfAbsent(r.labels(), JsonWriter::object),
          at == null ? null : at.truncatedTo(ChronoUnit.MICROS).toString(),
          micros(r.delay()),
          policy.maxAttempts(),
          policy.backoff().dbValue(),
          policy.base().toMillis(),
          policy.cap().toMillis(),
          policy.jitter(),
          micros(r.scheduleToClose()),
          r.uniqueKey(),
          micros(r.uniqueWindow()),
          r.concurrencyKey(),
          millis(r.attemptTimeout()));
    }
  }

  private static @Nullable Long millis(@Nullable Duration d) {
    return d == null ? null : d.toMillis();
  }

  private static @Nullable Long micros(@Nullable Duration d) {
    return d == null ? null : d.toSeconds() * 1_000_000L + d.toNanosPart() / 1_000L;
  }
}
