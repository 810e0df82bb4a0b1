package io.taskq.postgres.internal.client;

import io.taskq.JobRequest;
import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Inserts jobs: a whole batch in one {@code insert_jobs} statement (chunked past {@value
 * #CHUNK_ROWS} rows or {@value #CHUNK_BYTES} payload bytes), unique ones under their keyed locks,
 * and a chunk of at least {@value #COPY_MIN_ROWS} jobs without unique keys with COPY ({@link
 * CopyInserter}, X3) unless its jobs share one option set and it is small ({@value
 * #ONE_SET_INSERT_MAX_BYTES} payload bytes at most).
 *
 * <p>Order of work, all on one connection and, when it takes more than one statement, in one
 * transaction:
 *
 * <ol>
 *   <li>payload sizes are checked against the client's limit (nothing is sent when one is over);
 *   <li>requests sharing an actor and unique key are folded into the first (one statement cannot
 *       see its own rows, so the database could not fold them);
 *   <li>the keyed locks of every unique request are taken in one statement, in key order;
 *   <li>each chunk is inserted; the ids come back mapped to the input order.
 * </ol>
 *
 * <p>Unique requests need READ COMMITTED (PostgreSQL's default): the lookup statement must take a
 * fresh snapshot after the lock was granted. Under REPEATABLE READ or SERIALIZABLE a caller's
 * transaction could miss a twin committed while it waited for the lock.
 */
public final class JobInserter {
  /** Rows per insert statement of a batch. */
  public static final int CHUNK_ROWS = 5_000;

  static final long CHUNK_BYTES = 16L * 1024 * 1024;

  /**
   * X3: a full chunk ({@value #CHUNK_ROWS} jobs), none with a unique key, is written with COPY
   * ({@link CopyInserter}): no arrays for the server to parse. Smaller chunks keep the
   * one-statement INSERT: COPY takes two round trips and a transaction, and at 1 000 jobs per call
   * it measured slower than the single-set INSERT (docs/benchmarks.md, scale mode).
   */
  static final int COPY_MIN_ROWS = CHUNK_ROWS;

  /**
   * X3: a full chunk whose jobs share one option set and whose payloads come to at most this many
   * bytes takes {@code insert_jobs_one_set} instead of COPY: COPY makes the server parse every
   * column of every row, the one-set INSERT evaluates the options once, and at 5 000 small jobs it
   * measured a 13 to 20 % better ratio to the raw yardsticks (docs/benchmarks.md, "X3's floor").
   * Past this size the payloads are most of the work either way, and COPY streams them instead of
   * holding them a second time as one array.
   */
  static final long ONE_SET_INSERT_MAX_BYTES = 1024L * 1024;

  private final SchemaName schema;
  private final NamedStatements sql;
  private final String wakeChannel;
  private final long maxPayloadBytes;
  private final int timeoutSeconds;
  private final CopyInserter copy;

  public JobInserter(SchemaName schema, long maxPayloadBytes, int timeoutSeconds) {
    this.schema = schema;
    this.sql = NamedStatements.load("io/taskq/postgres/sql/enqueue.sql", schema);
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
    this.maxPayloadBytes = maxPayloadBytes;
    this.timeoutSeconds = timeoutSeconds;
    this.copy = new CopyInserter(sql, schema.quoted() + ".jobs", wakeChannel, timeoutSeconds);
  }

  /**
   * Checks the requests before any database work.
   *
   * @return whether inserting them takes more than one statement, so needs one transaction
   * @throws IllegalArgumentException naming the request whose payload is over the limit
   */
  public boolean validate(List<JobRequest> requests) {
    long bytes = 0;
    boolean unique = false;
    for (int i = 0; i < requests.size(); i++) {
      JobRequest r = requests.get(i);
      if (r.payloadBytes() > maxPayloadBytes) {
        throw new IllegalArgumentException(
            "payload of "
                + (requests.size() == 1 ? "the job" : "job " + i + " of the batch")
                + " (actor '"
                + r.actor()
                + "') is "
                + r.payloadBytes()
                + " bytes in UTF-8; this client allows at most "
                + maxPayloadBytes
                + " (maxPayloadBytes)");
      }
      bytes += r.payloadBytes();
      unique |= r.uniqueKey() != null;
    }
    return unique
        || requests.size() > CHUNK_ROWS
        || requests.size() >= COPY_MIN_ROWS
        || bytes > CHUNK_BYTES;
  }

  /** Inserts {@code requests}; the ids are in input order. Call {@link #validate} first. */
  public List<Long> insert(Connection c, List<JobRequest> requests) throws SQLException {
    boolean unique = false;
    for (JobRequest r : requests) {
      unique |= r.uniqueKey() != null;
    }
    // Without unique keys nothing folds and nothing is locked: each request is its own row.
    List<JobRequest> rows = requests;
    int[] rowOf = null;
    if (unique) {
      rows = new ArrayList<>(requests.size());
      rowOf = fold(requests, rows);
      lockUniqueKeys(c, rows);
    }
    long[] ids = new long[rows.size()];
    boolean copyable = !unique && CopyInserter.supports(c);
    int from = 0;
    while (from < rows.size()) {
      int to = chunkEnd(rows, from);
      writeChunk(c, rows.subList(from, to), copyable, ids, from);
      from = to;
    }
    List<Long> out = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      out.add(ids[rowOf == null ? i : rowOf[i]]);
    }
    return out;
  }

  /**
   * Writes one chunk: with COPY when it may ({@code copyable}: no unique key, the driver's
   * connection) and it is full, unless it is one option set of at most {@value
   * #ONE_SET_INSERT_MAX_BYTES} payload bytes; else with the INSERT statements.
   */
  private void writeChunk(
      Connection c, List<JobRequest> chunk, boolean copyable, long[] ids, int offset)
      throws SQLException {
    boolean full = copyable && chunk.size() >= COPY_MIN_ROWS;
    if (full && payloadBytes(chunk) > ONE_SET_INSERT_MAX_BYTES) {
      copy.insert(c, chunk, ids, offset);
      return;
    }
    EnqueueColumns columns = new EnqueueColumns(chunk);
    if (full && !columns.oneSetWithoutUniqueKey()) {
      copy.insert(c, chunk, ids, offset);
    } else {
      insertChunk(c, chunk, columns, ids, offset);
    }
  }

  private static long payloadBytes(List<JobRequest> chunk) {
    long bytes = 0;
    for (JobRequest r : chunk) {
      bytes += r.payloadBytes();
    }
    return bytes;
  }

  /** Fills {@code rows} with the distinct requests; returns each request's row. */
  private static int[] fold(List<JobRequest> requests, List<JobRequest> rows) {
    int[] rowOf = new int[requests.size()];
    Map<List<String>, Integer> firstRow = new HashMap<>();
    for (int i = 0; i < requests.size(); i++) {
      JobRequest r = requests.get(i);
      String key = r.uniqueKey();
      Integer seen = key == null ? null : firstRow.get(List.of(r.actor(), key));
      if (seen != null) {
        rowOf[i] = seen;
        continue;
      }
      if (key != null) {
        firstRow.put(List.of(r.actor(), key), rows.size());
      }
      rowOf[i] = rows.size();
      rows.add(r);
    }
    return rowOf;
  }

  private void lockUniqueKeys(Connection c, List<JobRequest> rows) throws SQLException {
    TreeSet<Long> keys = new TreeSet<>();
    for (JobRequest r : rows) {
      String key = r.uniqueKey();
      if (key != null) {
        keys.add(AdvisoryLockName.uniqueFor(schema, r.actor(), key).key());
      }
    }
    if (keys.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(sql.get("lock_unique_keys"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setObject(1, keys.toArray(new Long[0]));
      ps.execute();
    }
  }

  private static int chunkEnd(List<JobRequest> rows, int from) {
    long bytes = 0;
    int to = from;
    while (to < rows.size() && to - from < CHUNK_ROWS) {
      bytes += rows.get(to).payloadBytes();
      if (to > from && bytes > CHUNK_BYTES) {
        break;
      }
      to++;
    }
    return to;
  }

  private void insertChunk(
      Connection c, List<JobRequest> chunk, EnqueueColumns columns, long[] ids, int offset)
      throws SQLException {
    List<Long> inserted = new ArrayList<>(chunk.size());
    long[] twins = new long[chunk.size()];
    if (columns.oneSetWithoutUniqueKey()) {
      insertOneSet(c, columns, chunk.size(), ids, offset);
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(sql.get("insert_jobs"))) {
      ps.setQueryTimeout(timeoutSeconds);
      columns.bind(ps);
      ps.setString(EnqueueColumns.PARAMETERS + 1, wakeChannel);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long id = rs.getLong(1);
          boolean noId = rs.wasNull();
          long set = rs.getLong(2);
          if (rs.wasNull()) {
            if (!noId) {
              inserted.add(id);
            }
          } else {
            twins[columns.rowOfSet(set)] = id;
          }
        }
      }
    }
    assign(inserted, twins, ids, offset);
  }

  /**
   * The common case: one option set, no unique key, so no twins (insert_jobs_one_set). The ids
   * arrive in insert order, which is input order; they are written straight into {@code ids}, and
   * sorted only if the database returned them out of order.
   */
  private void insertOneSet(Connection c, EnqueueColumns columns, int rows, long[] ids, int offset)
      throws SQLException {
    int n = 0;
    boolean ascending = true;
    try (PreparedStatement ps = c.prepareStatement(sql.get("insert_jobs_one_set"))) {
      ps.setQueryTimeout(timeoutSeconds);
      columns.bindOneSet(ps, wakeChannel);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (n == rows) {
            throw new IllegalStateException(
                "insert_jobs_one_set returned more than " + rows + " ids for " + rows + " rows");
          }
          long id = rs.getLong(1);
          ascending &= n == 0 || id > ids[offset + n - 1];
          ids[offset + n++] = id;
        }
      }
    }
    if (n != rows) {
      throw new IllegalStateException(
          "insert_jobs_one_set returned " + n + " ids for " + rows + " rows");
    }
    if (!ascending) {
      Arrays.sort(ids, offset, offset + rows);
    }
  }

  /** Identity ids rise in insert order, which is input order (ORDER BY ord in the statement). */
  private static void assign(List<Long> inserted, long[] twins, long[] ids, int offset) {
    long[] fresh = inserted.stream().mapToLong(Long::longValue).sorted().toArray();
    long expected = Arrays.stream(twins).filter(t -> t == 0).count();
    if (fresh.length != expected) {
      throw new IllegalStateException(
          "insert_jobs returned " + fresh.length + " new ids for " + expected + " new rows");
    }
    int next = 0;
    for (int i = 0; i < twins.length; i++) {
      ids[offset + i] = twins[i] != 0 ? twins[i] : fresh[next++];
    }
  }
}
