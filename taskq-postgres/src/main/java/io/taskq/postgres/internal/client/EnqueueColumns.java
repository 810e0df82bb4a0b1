package io.taskq.postgres.internal.client;

import io.taskq.core.RetryPolicy;
import io.taskq.postgres.JobRequest;
import io.taskq.postgres.internal.JsonWriter;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@code insert_jobs} statement's parameters: one array per column, element {@code i} from
 * request {@code i}. Arrays keep the statement text fixed whatever the batch size, so PostgreSQL
 * plans it once, and thousands of rows travel in one round trip.
 */
final class EnqueueColumns {
  private final String[] actor;
  private final String[] queue;
  private final Integer[] priority;
  private final String[] payload;
  private final String[] labels;
  private final @Nullable String[] runAt;
  private final @Nullable Long[] delayMicros;
  private final Integer[] maxAttempts;
  private final String[] backoff;
  private final Long[] baseMs;
  private final Long[] capMs;
  private final Double[] jitter;
  private final @Nullable Long[] deadlineMicros;
  private final @Nullable String[] uniqueKey;
  private final @Nullable Long[] uniqueMicros;

  EnqueueColumns(List<JobRequest> rows) {
    int n = rows.size();
    actor = new String[n];
    queue = new String[n];
    priority = new Integer[n];
    payload = new String[n];
    labels = new String[n];
    runAt = new String[n];
    delayMicros = new Long[n];
    maxAttempts = new Integer[n];
    backoff = new String[n];
    baseMs = new Long[n];
    capMs = new Long[n];
    jitter = new Double[n];
    deadlineMicros = new Long[n];
    uniqueKey = new String[n];
    uniqueMicros = new Long[n];
    for (int i = 0; i < n; i++) {
      fill(i, rows.get(i));
    }
  }

  private void fill(int i, JobRequest r) {
    actor[i] = r.actor();
    queue[i] = r.queue();
    priority[i] = (int) r.priority();
    payload[i] = r.payloadJson();
    labels[i] = r.labels().isEmpty() ? "{}" : JsonWriter.object(r.labels());
    Instant at = r.runAt();
    runAt[i] = at == null ? null : at.truncatedTo(ChronoUnit.MICROS).toString();
    delayMicros[i] = micros(r.delay());
    RetryPolicy policy = r.retryPolicy();
    maxAttempts[i] = policy.maxAttempts();
    backoff[i] = policy.backoff().dbValue();
    baseMs[i] = policy.base().toMillis();
    capMs[i] = policy.cap().toMillis();
    jitter[i] = policy.jitter();
    deadlineMicros[i] = micros(r.scheduleToClose());
    uniqueKey[i] = r.uniqueKey();
    uniqueMicros[i] = micros(r.uniqueWindow());
  }

  /** Binds the 15 arrays as parameters 1 to 15. */
  void bind(PreparedStatement ps) throws SQLException {
    Object[] columns = {
      actor,
      queue,
      priority,
      payload,
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
      uniqueMicros
    };
    for (int i = 0; i < columns.length; i++) {
      ps.setObject(i + 1, columns[i]);
    }
  }

  static final int PARAMETERS = 15;

  private static @Nullable Long micros(@Nullable Duration d) {
    return d == null ? null : d.toSeconds() * 1_000_000L + d.toNanosPart() / 1_000L;
  }
}
