package io.taskq.postgres.internal.client;

import io.taskq.JobRequest;
import io.taskq.RetryPolicy;
import io.taskq.postgres.internal.JsonWriter;
import io.taskq.postgres.internal.NamedStatements;
import java.nio.charset.StandardCharsets;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

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
 *
 * <p>The driver's query timeout does not reach a COPY (PgJDBC's {@code copyIn} takes none), so the
 * COPY is bounded by the server instead (D10): {@code copy_prepare} makes the client's statement
 * timeout the transaction's {@code statement_timeout} (SET LOCAL semantics; a shorter one the
 * transaction already has stays), and after the COPY the value it found is put back, so a caller's
 * transaction keeps its own setting. A COPY that runs past it fails with SQLSTATE 57014, as a timed
 * out INSERT does.
 */
final class CopyInserter {
  /** Characters of row text buffered before they are sent (about 64 KiB). */
  static final int FLUSH_CHARS = 64 * 1024;

  private static final Pattern COPY_LINE = Pattern.compile("COPY [^,]*, line (\\d+)");

  private final String prepareSql;
  private final String copySql;
  private final String restoreSql;
  private final String wakeChannel;
  private final String table;
  private final int timeoutSeconds;

  CopyInserter(NamedStatements sql, String table, String wakeChannel, int timeoutSeconds) {
    this.prepareSql = sql.get("copy_prepare");
    this.copySql = sql.get("copy_jobs");
    this.restoreSql = sql.get("copy_restore_timeout");
    this.table = table;
    this.wakeChannel = wakeChannel;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** Whether {@code c} can run COPY (the PostgreSQL driver's connection, possibly pooled). */
  static boolean supports(Connection c) throws SQLException {
    return c.isWrapperFor(PGConnection.class);
  }

  /**
   * Inserts {@code chunk} and writes its ids, in input order, into {@code ids} from offset. The
   * rows are streamed to the server {@value #FLUSH_CHARS} characters at a time, so the chunk is
   * never held a second time as one text (a chunk may carry up to 16 MiB of payload, and the client
   * may run in a small heap).
   *
   * @throws SQLException the database's error; when it names a row, the message names the job (its
   *     index in the batch and its actor) before the database's own words
   */
  void insert(Connection c, List<JobRequest> chunk, long[] ids, int offset) throws SQLException {
    Prepared prepared = prepare(c, chunk, ids, offset);
    Instant now = prepared.now();
    CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql);
    try {
      Rows rows = new Rows(now);
      for (int i = 0; i < chunk.size(); i++) {
        rows.add(chunk.get(i), ids[offset + i]);
        if (rows.length() >= FLUSH_CHARS) {
          rows.sendTo(copy);
        }
      }
      rows.sendTo(copy);
      long copied = copy.endCopy();
      if (copied != chunk.size()) {
        throw new IllegalStateException("COPY wrote " + copied + " rows of " + chunk.size());
      }
    } catch (SQLException e) {
      cancelQuietly(copy, e);
      throw namingTheJob(e, chunk, offset);
    } catch (RuntimeException e) {
      cancelQuietly(copy, e);
      throw e;
    }
    restoreTimeout(c, prepared.previousTimeout());
  }

  /** What copy_prepare returns besides the ids: the clock reading and the timeout it replaced. */
  private record Prepared(Instant now, String previousTimeout) {}

  /**
   * Puts back the transaction's {@code statement_timeout} that {@code copy_prepare} replaced (after
   * a failed COPY the transaction is aborted, and its rollback restores it).
   */
  private void restoreTimeout(Connection c, String previous) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(restoreSql)) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, previous);
      ps.executeQuery().close();
    }
  }

  private static void cancelQuietly(CopyIn copy, Exception cause) {
    if (!copy.isActive()) {
      return;
    }
    try {
      copy.cancelCopy();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * The database names the failing row of a COPY by its line ({@code COPY jobs, line 7}); the
   * caller knows jobs, so the message says which job of the batch that was, and its actor.
   */
  private static SQLException namingTheJob(SQLException e, List<JobRequest> chunk, int offset) {
    ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
    String where = server == null ? null : server.getWhere();
    Matcher line = where == null ? null : COPY_LINE.matcher(where);
    if (line == null || !line.find()) {
      return e;
    }
    int row = Integer.parseInt(line.group(1)) - 1;
    if (row < 0 || row >= chunk.size()) {
      return e;
    }
    return new SQLException(
        "job "
            + (offset + row)
            + " of the batch (actor '"
            + chunk.get(row).actor()
            + "') was refused: "
            + e.getMessage(),
        e.getSQLState(),
        e);
  }

  private Prepared prepare(Connection c, List<JobRequest> chunk, long[] ids, int offset)
      throws SQLException {
    Map<String, @Nullable Instant> earliestDue = earliestDuePerQueue(chunk);
    try (PreparedStatement ps = c.prepareStatement(prepareSql)) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, table);
      ps.setString(2, wakeChannel);
      ps.setArray(3, c.createArrayOf("text", earliestDue.keySet().toArray()));
      ps.setArray(4, c.createArrayOf("text", dueTexts(earliestDue)));
      ps.setInt(5, chunk.size());
      ps.setLong(6, timeoutSeconds * 1000L);
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
        return new Prepared(now, rs.getString(4));
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

  /** The COPY text of a chunk's rows, in pieces: each row computed from the one clock reading. */
  private static final class Rows {
    private final StringBuilder out = new StringBuilder(FLUSH_CHARS + FLUSH_CHARS / 4);
    private final Map<Map<String, String>, String> labelsJson = new HashMap<>();
    private final Instant now;
    private final String created;

    Rows(Instant now) {
      this.now = now;
      this.created = now.toString();
    }

    int length() {
      return out.length();
    }

    /** Sends what is buffered as UTF-8 (the driver's client encoding) and empties the buffer. */
    void sendTo(CopyIn copy) throws SQLException {
      if (out.length() == 0) {
        return;
      }
      byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
      copy.writeToCopy(bytes, 0, bytes.length);
      out.setLength(0);
    }

    void add(JobRequest r, long id) {
      Instant due = due(r, now);
      RetryPolicy policy = r.retryPolicy();
      Duration budget = r.scheduleToClose();
      out.append(id).append('\t');
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
