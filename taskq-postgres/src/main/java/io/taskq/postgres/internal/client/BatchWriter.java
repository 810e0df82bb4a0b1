package io.taskq.postgres.internal.client;

import io.taskq.JobRequest;
import io.taskq.RetryPolicy;
import io.taskq.SchemaName;
import io.taskq.bulk.BatchInfo;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.postgres.internal.JsonWriter;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Creates batches (L9): the batch row with its hook template, the members through the {@link
 * JobInserter}, and the members' {@code batch_id}, all in the one transaction the caller provides.
 */
public final class BatchWriter {
  /** Members joined to their batch per statement, like the inserter's chunks. */
  static final int ATTACH_ROWS = JobInserter.CHUNK_ROWS;

  private final NamedStatements sql;
  private final JobInserter inserter;
  private final int timeoutSeconds;

  public BatchWriter(SchemaName schema, JobInserter inserter, int timeoutSeconds) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/batches.sql", schema);
    this.inserter = inserter;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** Inserts {@code request} in {@code tx}, which must be inside a transaction. */
  public EnqueuedBatch insert(Connection tx, BatchRequest request) throws SQLException {
    List<JobRequest> members = request.members();
    long batchId = insertBatch(tx, members.size(), request.hook());
    List<Long> ids = inserter.insert(tx, members);
    int attached = 0;
    try (PreparedStatement ps = tx.prepareStatement(sql.get("attach_members"))) {
      ps.setQueryTimeout(timeoutSeconds);
      for (int from = 0; from < ids.size(); from += ATTACH_ROWS) {
        List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + ATTACH_ROWS));
        ps.setLong(1, batchId);
        ps.setArray(2, tx.createArrayOf("bigint", chunk.toArray()));
        attached += ps.executeUpdate();
      }
    }
    if (attached != ids.size()) {
      throw new IllegalStateException(
          "batch " + batchId + ": attached " + attached + " of " + ids.size() + " members");
    }
    return new EnqueuedBatch(batchId, ids);
  }

  private long insertBatch(Connection tx, int total, @Nullable JobRequest hook)
      throws SQLException {
    RetryPolicy policy = hook == null ? RetryPolicy.defaults() : hook.retryPolicy();
    try (PreparedStatement ps = tx.prepareStatement(sql.get("insert_batch"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setInt(1, total);
      if (hook == null) {
        ps.setNull(2, Types.VARCHAR);
        ps.setNull(3, Types.VARCHAR);
        ps.setInt(4, 0);
        ps.setString(5, "{}");
      } else {
        ps.setString(2, hook.actor());
        ps.setString(3, hook.queue());
        ps.setInt(4, hook.priority());
        ps.setString(5, hook.payloadJson());
      }
      ps.setInt(6, policy.maxAttempts());
      ps.setString(7, policy.backoff().dbValue());
      ps.setLong(8, policy.base().toMillis());
      ps.setLong(9, policy.cap().toMillis());
      ps.setDouble(10, policy.jitter());
      ps.setString(
          11, hook == null || hook.labels().isEmpty() ? "{}" : JsonWriter.object(hook.labels()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** The batch with {@code id}, or empty. */
  public Optional<BatchInfo> find(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("find_batch"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        long hookJob = rs.getLong("hook_job_id");
        Long hookJobId = rs.wasNull() ? null : hookJob;
        Timestamp completedAt = rs.getTimestamp("completed_at");
        return Optional.of(
            new BatchInfo(
                rs.getLong("id"),
                "completed".equals(rs.getString("status")),
                rs.getInt("total"),
                rs.getInt("succeeded"),
                rs.getInt("failed"),
                rs.getInt("cancelled"),
                rs.getString("hook_actor"),
                hookJobId,
                rs.getTimestamp("created_at").toInstant(),
                completedAt == null ? null : completedAt.toInstant()));
      }
    }
  }
}
