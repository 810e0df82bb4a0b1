package io.taskq.postgres.internal.dispatch;

import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.caps.ConcurrencyCaps;
import io.taskq.postgres.internal.caps.ReservationRegistry;
import io.taskq.postgres.internal.caps.Scope;
import io.taskq.postgres.internal.client.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Claims under concurrency caps (L7): one transaction of three statements ({@code caps.sql}).
 *
 * <ol>
 *   <li>{@code claim_candidates} locks up to {@code limit + lookAhead} due jobs, skipping the ones
 *       whose scope is full right now, so a full key or actor never hides the jobs behind it;
 *   <li>{@code acquire_slots} locks free slots (creating missing ones up to the cap) of the scopes
 *       those candidates need, as many per scope as candidates need it;
 *   <li>in claim order, a candidate that finds a slot of every scope it needs takes them, up to
 *       {@code limit} jobs; {@code claim_chosen} makes those {@code running} and hands them their
 *       slots under the job's lease token (D9).
 * </ol>
 *
 * <p>A candidate left without a slot is not touched: it stays {@code pending}, no attempt used, and
 * its row lock ends with the transaction. Two claimers never wait on each other's job or slot rows
 * (SKIP LOCKED); the only wait is on a slot row another claimer is creating.
 */
final class CappedClaimer {
  /** Extra candidates a claim looks at, for jobs a racing claimer filled the scope of. */
  static final int LOOK_AHEAD = 8;

  private final ConcurrencyCaps caps;
  private final ReservationRegistry registry;
  private final String candidatesSql;
  private final String acquireSql;
  private final String claimSql;

  CappedClaimer(NamedStatements statements, ConcurrencyCaps caps, ReservationRegistry registry) {
    this.caps = caps;
    this.registry = registry;
    this.candidatesSql = statements.get("claim_candidates");
    this.acquireSql = statements.get("acquire_slots");
    this.claimSql = statements.get("claim_chosen");
  }

  private record Candidate(long id, List<ConcurrencyCaps.Capped> scopes) {}

  List<ClaimedJob> claim(
      Connection c,
      List<String> queues,
      List<String> actors,
      int limit,
      String workerId,
      long leaseMillis)
      throws SQLException {
    return Transactions.owned(
        c,
        true,
        tx -> {
          List<Candidate> candidates = candidates(tx, queues, actors, limit + LOOK_AHEAD);
          if (candidates.isEmpty()) {
            return List.of();
          }
          Map<Scope, ArrayDeque<Long>> slots = acquire(tx, candidates);
          List<Long> chosen = new ArrayList<>(limit);
          List<Long> slotIds = new ArrayList<>();
          List<Long> slotJobs = new ArrayList<>();
          List<Scope> used = new ArrayList<>();
          for (Candidate candidate : candidates) {
            if (chosen.size() == limit) {
              break;
            }
            if (!allAvailable(candidate, slots)) {
              continue; // stays pending, untouched
            }
            chosen.add(candidate.id());
            for (ConcurrencyCaps.Capped need : candidate.scopes()) {
              slotIds.add(Objects.requireNonNull(slots.get(need.scope())).pop());
              slotJobs.add(candidate.id());
              used.add(need.scope());
            }
          }
          if (chosen.isEmpty()) {
            return List.of();
          }
          List<ClaimedJob> claimed =
              claimChosen(tx, chosen, slotIds, slotJobs, workerId, leaseMillis);
          registry.touch(used);
          return claimed;
        });
  }

  private static boolean allAvailable(Candidate candidate, Map<Scope, ArrayDeque<Long>> slots) {
    for (ConcurrencyCaps.Capped need : candidate.scopes()) {
      ArrayDeque<Long> free = slots.get(need.scope());
      if (free == null || free.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  private List<Candidate> candidates(
      Connection tx, List<String> queues, List<String> actors, int scan) throws SQLException {
    try (PreparedStatement s = tx.prepareStatement(candidatesSql)) {
      int i = bindCaps(tx, s, 1, caps.queueCaps());
      i = bindCaps(tx, s, i, caps.actorCaps());
      i = bindCaps(tx, s, i, caps.keyCaps());
      s.setArray(i++, tx.createArrayOf("text", queues.toArray()));
      s.setArray(i++, tx.createArrayOf("text", actors.toArray()));
      s.setInt(i++, scan);
      s.setInt(i, scan);
      List<Candidate> out = new ArrayList<>(scan);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(
              new Candidate(
                  rs.getLong("id"),
                  caps.scopesOf(
                      rs.getString("queue"),
                      rs.getString("actor"),
                      rs.getString("concurrency_key"))));
        }
      }
      return out;
    }
  }

  private static int bindCaps(Connection tx, PreparedStatement s, int at, Map<String, Integer> caps)
      throws SQLException {
    s.setArray(at, tx.createArrayOf("text", caps.keySet().toArray()));
    s.setArray(at + 1, tx.createArrayOf("integer", caps.values().toArray()));
    return at + 2;
  }

  private Map<Scope, ArrayDeque<Long>> acquire(Connection tx, List<Candidate> candidates)
      throws SQLException {
    Map<Scope, int[]> wanted = new TreeMap<>(); // scope -> {wanted, cap}
    for (Candidate candidate : candidates) {
      for (ConcurrencyCaps.Capped need : candidate.scopes()) {
        wanted.computeIfAbsent(need.scope(), k -> new int[] {0, need.cap()})[0]++;
      }
    }
    Map<Scope, ArrayDeque<Long>> slots = new HashMap<>();
    if (wanted.isEmpty()) {
      return slots;
    }
    int n = wanted.size();
    String[] kinds = new String[n];
    String[] names = new String[n];
    Integer[] capArray = new Integer[n];
    Integer[] wantedArray = new Integer[n];
    int i = 0;
    for (Map.Entry<Scope, int[]> e : wanted.entrySet()) {
      Scope scope = e.getKey();
      int cap = e.getValue()[1];
      kinds[i] = scope.kind().dbValue();
      names[i] = scope.name();
      capArray[i] = cap;
      wantedArray[i] = Math.min(e.getValue()[0], cap);
      i++;
    }
    try (PreparedStatement s = tx.prepareStatement(acquireSql)) {
      s.setArray(1, tx.createArrayOf("text", kinds));
      s.setArray(2, tx.createArrayOf("text", names));
      s.setArray(3, tx.createArrayOf("integer", capArray));
      s.setArray(4, tx.createArrayOf("integer", wantedArray));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          Scope scope = new Scope(kindOf(rs.getString("scope_kind")), rs.getString("scope_name"));
          slots.computeIfAbsent(scope, k -> new ArrayDeque<>()).add(rs.getLong("id"));
        }
      }
    }
    return slots;
  }

  private static Scope.Kind kindOf(@Nullable String dbValue) throws SQLException {
    for (Scope.Kind kind : Scope.Kind.values()) {
      if (kind.dbValue().equals(dbValue)) {
        return kind;
      }
    }
    throw new SQLException("unknown reservation scope kind " + dbValue);
  }

  private List<ClaimedJob> claimChosen(
      Connection tx,
      List<Long> chosen,
      List<Long> slotIds,
      List<Long> slotJobs,
      String workerId,
      long leaseMillis)
      throws SQLException {
    try (PreparedStatement s = tx.prepareStatement(claimSql)) {
      s.setArray(1, tx.createArrayOf("bigint", chosen.toArray()));
      s.setString(2, workerId);
      s.setLong(3, leaseMillis);
      s.setArray(4, tx.createArrayOf("bigint", slotIds.toArray()));
      s.setArray(5, tx.createArrayOf("bigint", slotJobs.toArray()));
      List<ClaimedJob> jobs = new ArrayList<>(chosen.size());
      Set<Long> holders = new HashSet<>(slotJobs);
      long assigned = 0;
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          // L7: only a job handed a slot here holds any (its lease token is new with this claim).
          jobs.add(JobClaimer.read(rs, holders.contains(rs.getLong("id"))));
          assigned = rs.getLong("slots_assigned");
        }
      }
      if (jobs.size() != chosen.size() || assigned != slotIds.size()) {
        // Every candidate was locked by this transaction: anything else is a bug, and the
        // rollback leaves the jobs pending and the slots free.
        throw new SQLException(
            "capped claim mismatch: "
                + jobs.size()
                + " of "
                + chosen.size()
                + " jobs, "
                + assigned
                + " of "
                + slotIds.size()
                + " slots");
      }
      return jobs;
    }
  }
}
