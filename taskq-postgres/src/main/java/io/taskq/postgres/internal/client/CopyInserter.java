package io.taskq.postgres.internal.client;

import io.taskq.JobRequest;
import io.taskq.RetryPolicy;
import io.taskq.postgres.internal.JsonWriter;
import io.taskq.postgres.internal.NamedStatements;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;

/**
 * Inserts a large chunk of jobs without unique keys with {@code COPY} (X3): two round trips,
 * whatever the chunk's size, and no statement for the server to parse arrays for.
 *
 * <ol>
 *   <li>{@code copy_prepare} reads the database clock once (L4, B4), draws the chunk's ids from the
 *       identity sequence in input order (so ids rise in input order, as with the INSERT
 *       statements) and sends the wake NOTIFY once per queue that receives a due job (D11;
 *       delivered on commit, so a rolled-back enqueue wakes nobody);
 *   <li>{@code COPY jobs (...) FROM STDIN} in text format writes the rows with those ids (COPY
 *       writes an identity column's given values), each row's status and times computed from that
 *       one clock reading exactly as the INSERT statements compute them.
 * </ol>
 *
 * <p>Both run in the caller's transaction ({@link JobInserter#validate} asks for one), so the chunk
 * commits whole or not at all; an id drawn by a rolled-back COPY is simply never used, as with an
 * INSERT. The table's CHECK constraints apply to COPY as to INSERT.
 */
final class CopyInserter {
  private final String prepareSql;
  private final String copySql;
  private final String wakeChannel;
  private final String table;
  private final int timeoutSeconds;

  CopyInserter(NamedStatements sql, String table, String wakeChannel, int timeoutSeconds) {
    this.prepareSql = sql.get("copy_prepare");
    this.copySql = sql.get("copy_jobs");
    this.table = table;
    this.wakeChannel = wakeChannel;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** Whether {@code c} can run COPY (the PostgreSQL driver's connection, possibly pooled). */
  static boolean supports(Connection c) throws SQLException {
    return c.isWrapperFor(PGConnection.class);
  }

  /** Inserts {@code chunk} and writes its ids, in input order, into {@code ids} from offset. */
  void insert(Connection c, List<JobRequest> chunk, long[] ids, int offset) throws SQLException {
    Instant now = prepare(c, chunk, ids, offset);
    String rows = rows(chunk, ids, offset, now);
    try {
      long copied =
          c.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql, new StringReader(rows));
      if (copied != chunk.size()) {
        throw new IllegalStateException("COPY wrote " + copied + " rows of " + chunk.size());
      }
    } catch (IOException e) {
      throw new SQLException("COPY of " + chunk.size() + " jobs failed", e);
    }
  }

  private Instant prepare(Connection c, List<JobRequest> chunk, long[] ids, int offset)
      throws SQLException {
    Map<String, @Nullable Instant> earliestDue = earliestDuePerQueue(chunk);
    try (PreparedStatement ps = c.prepareStatement(prepareSql)) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, table);
      ps.setString(2, wakeChannel);
      ps.setArray(3, c.createArrayOf("text", earliestDue.keySet().toArray()));
      ps.setArray(4, c.createArrayOf("text", dueTexts(earliestDue)));
      ps.setInt(5, chunk.size());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("copy_prepare returned no row");
        }
        Instant now = rs.getObject(1, OffsetDateTime.class).toInstant();
        Array drawn = rs.getArray(2);
        Long[] values = (Long[]) drawn.getArray();
        if (values.length != chunk.size()) {
          throw new IllegalStateException(
              "copy_prepare drew " + values.length + " ids for " + chunk.size() + " jobs");
        }
        for (int i = 0; i < values.length; i++) {
          ids[offset + i] = values[i];
        }
        return now;
      }
    }
  }

  /**
   * Per queue, the earliest time one of its jobs is due, when it can be known before the clock is
   * read: null for "now" (no run time, no delay), a job's absolute run time otherwise. A queue
   * whose jobs all have a positive delay is absent (none is due at once).
   */
  private static Map<String, @Nullable Instant> earliestDuePerQueue(List<JobRequest> chunk) {
    Map<String, @Nullable Instant> due = new LinkedHashMap<>();
    for (JobRequest r : chunk) {
      Instant at = r.runAt();
      Duration delay = r.delay();
      if (at == null && delay != null && !delay.isNegative() && !delay.isZero()) {
        continue;
      }
      Instant when = at == null ? null : at.truncatedTo(ChronoUnit.MICROS);
      if (!due.containsKey(r.queue())) {
        due.put(r.queue(), when);
      } else {
        Instant seen = due.get(r.queue());
        if (seen != null && (when == null || when.isBefore(seen))) {
          due.put(r.queue(), when);
        }
      }
    }
    return due;
  }

  private static @Nullable String[] dueTexts(Map<String, @Nullable Instant> due) {
    @Nullable String[] out = new String[due.size()];
    int i = 0;
    for (Instant when : due.values()) {
      out[i++] = when == null ? null : when.toString();
    }
    return out;
  }

  private static String rows(List<JobRequest> chunk, long[] ids, int offset, Instant now) {
    StringBuilder out = new StringBuilder(chunk.size() * 256);
    Map<Map<String, String>, String> labelsJson = new HashMap<>();
    String created = now.toString();
    for (int i = 0; i < chunk.size(); i++) {
      JobRequest r = chunk.get(i);
      Instant due = due(r, now);
      RetryPolicy policy = r.retryPolicy();
      Duration budget = r.scheduleToClose();
      out.append(ids[offset + i]).append('\t');
      field(out, r.actor());
      field(out, r.queue());
      out.append(due.isAfter(now) ? "scheduled" : "pending").append('\t');
      out.append(r.priority()).append('\t');
      field(out, r.payloadJson());
      field(
          out,
          r.labels().isEmpty() ? "{}" : labelsJson.computeIfAbsent(r.labels(), JsonWriter::object));
      out.append(due).append('\t');
      out.append(policy.maxAttempts()).append('\t');
      out.append(policy.backoff().dbValue()).append('\t');
      out.append(policy.base().toMillis()).append('\t');
      out.append(policy.cap().toMillis()).append('\t');
      out.append(policy.jitter()).append('\t');
      out.append(budget == null ? "\\N" : now.plus(micros(budget))).append('\t');
      String key = r.concurrencyKey();
      if (key == null) {
        out.append("\\N\t");
      } else {
        field(out, key);
      }
      Duration timeout = r.attemptTimeout();
      out.append(timeout == null ? "\\N" : Long.toString(timeout.toMillis())).append('\t');
      out.append(created).append('\n');
    }
    return out.toString();
  }

  /** When the job is due: its run time, or the clock reading plus its delay (as the INSERTs do). */
  private static Instant due(JobRequest r, Instant now) {
    Instant at = r.runAt();
    if (at != null) {
      return at.truncatedTo(ChronoUnit.MICROS);
    }
    Duration delay = r.delay();
    return delay == null ? now : now.plus(micros(delay));
  }

  private static Duration micros(Duration d) {
    return d.truncatedTo(ChronoUnit.MICROS);
  }

  /** One text-format field and its tab, escaped as COPY's text format requires. */
  private static void field(StringBuilder out, String value) {
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      switch (ch) {
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> out.append(ch);
      }
    }
    out.append('\t');
  }
}
