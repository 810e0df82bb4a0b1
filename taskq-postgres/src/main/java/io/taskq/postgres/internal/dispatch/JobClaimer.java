package io.taskq.postgres.internal.dispatch;

import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.caps.ConcurrencyCaps;
import io.taskq.postgres.internal.caps.ReservationRegistry;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Claims due pending jobs for one worker with one statement per batch (L4, D9).
 *
 * <p>The statement ({@code claim.sql}) picks at most {@code limit} due jobs of the given queues and
 * actors in (priority, run_at, id) order with {@code FOR UPDATE SKIP LOCKED}, one index range per
 * (queue, actor) served (X1, {@code claim_pick} in V008), and in the same statement makes them
 * {@code running}: owner, lease until now + lease period (database clock), a fresh lease token, the
 * next attempt number. Two claimers therefore never receive the same job.
 *
 * <p>A worker with concurrency caps (L7) claims through {@link CappedClaimer} instead: the same
 * order and the same transition, plus reservation slots acquired in the same transaction.
 */
public final class JobClaimer {
  private static final Comparator<ClaimedJob> CLAIM_ORDER =
      Comparator.comparingInt(ClaimedJob::priority)
          .thenComparing(ClaimedJob::runAt)
          .thenComparingLong(ClaimedJob::id);

  private final DataSource dataSource;
  private final String sql;
  private final String workerId;
  private final long leaseMillis;
  private final FaultSeam seam;
  private final @Nullable CappedClaimer capped;

  public JobClaimer(
      DataSource dataSource,
      NamedStatements statements,
      String workerId,
      Duration leasePeriod,
      FaultSeam seam) {
    this(dataSource, statements, workerId, leasePeriod, seam, null, ConcurrencyCaps.none(), null);
  }

  /**
   * A claimer enforcing {@code caps} (L7) with the statements of {@code caps.sql}, recording the
   * scopes it reserved in {@code registry} (S10). Without caps it is the plain claimer.
   */
  public JobClaimer(
      DataSource dataSource,
      NamedStatements statements,
      String workerId,
      Duration leasePeriod,
      FaultSeam seam,
      @Nullable NamedStatements capsStatements,
      ConcurrencyCaps caps,
      @Nullable ReservationRegistry registry) {
    this.dataSource = dataSource;
    this.sql = statements.get("claim");
    this.workerId = workerId;
    this.leaseMillis = leasePeriod.toMillis();
    this.seam = seam;
    this.capped =
        caps.isEmpty() || capsStatements == null || registry == null
            ? null
            : new CappedClaimer(capsStatements, caps, registry);
  }

  /**
   * Claims up to {@code limit} due jobs, returned in claim order (priority, run_at, id).
   *
   * @param queues the queues to claim from
   * @param actors the actors this worker has handlers for
   */
  public List<ClaimedJob> claim(List<String> queues, List<String> actors, int limit)
      throws SQLException {
    seam.check();
    CappedClaimer cappedClaimer = capped;
    if (cappedClaimer != null) {
      try (Connection c = dataSource.getConnection()) {
        List<ClaimedJob> jobs =
            new ArrayList<>(cappedClaimer.claim(c, queues, actors, limit, workerId, leaseMillis));
        jobs.sort(CLAIM_ORDER);
        return jobs;
      }
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      c.setAutoCommit(true);
      s.setArray(1, c.createArrayOf("text", queues.toArray()));
      s.setArray(2, c.createArrayOf("text", actors.toArray()));
      s.setInt(3, limit);
      s.setString(4, workerId);
      s.setLong(5, leaseMillis);
      List<ClaimedJob> jobs = new ArrayList<>(limit);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          jobs.add(read(rs, false));
        }
      }
      jobs.sort(CLAIM_ORDER);
      return jobs;
    }
  }

  /**
   * The claimed job of the current row of a claim's result ({@code claim} or {@code claim_chosen}).
   *
   * @param holdsSlots whether the claim handed this attempt reservation slots (the plain claim
   *     never does)
   */
  public static ClaimedJob read(ResultSet rs, boolean holdsSlots) throws SQLException {
    return new ClaimedJob(
        rs.getLong("id"),
        rs.getString("actor"),
        rs.getString("queue"),
        rs.getInt("priority"),
        instant(rs, "run_at"),
        rs.getString("payload"),
        rs.getInt("attempt"),
        rs.getInt("max_attempts"),
        rs.getLong("lease_token"),
        nullableInstant(rs, "deadline_at"),
        rs.getBoolean("cancel_requested"),
        instant(rs, "started_at"),
        labels(rs),
        rs.getLong("attempt_timeout_ms"),
        holdsSlots);
  }

  /** The labels, read only when the claim returned some ({@code label_keys} is null otherwise). */
  private static Map<String, String> labels(ResultSet rs) throws SQLException {
    Array keys = rs.getArray("label_keys");
    Array values = rs.getArray("label_values");
    if (keys == null || values == null) {
      return Map.of();
    }
    String[] k = (String[]) keys.getArray();
    String[] v = (String[]) values.getArray();
    Map<String, String> out = new HashMap<>(k.length * 2);
    for (int i = 0; i < k.length; i++) {
      out.put(k[i], v[i]);
    }
    return Collections.unmodifiableMap(out);
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    Instant value = nullableInstant(rs, column);
    if (value == null) {
      throw new SQLException("claim returned no " + column);
    }
    return value;
  }

  private static @Nullable Instant nullableInstant(ResultSet rs, String column)
      throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
