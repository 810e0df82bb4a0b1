package io.taskq.postgres.internal.dispatch;

import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's view of the stored pauses (A4): the queues and actors it leaves out of its claims,
 * so a worker whose every queue is paused makes no claim at all. The dispatcher passes the unpaused
 * queues and actors as the claim's usual bound arrays. The view can be a moment old (a claim
 * prepared just before a pause committed), so the claim statement also skips paused rows itself, by
 * its own snapshot: the view saves round trips, the statement keeps the guarantee. The view is
 * re-read before a claim once per poll interval, and at once after a pause or resume (they notify
 * the wake channel with {@link #NOTIFY_PAYLOAD}). When the read fails the last view is kept
 * (logged), so a database hiccup never un-pauses a queue.
 */
public final class PausedTargets {
  /** The wake-channel payload a pause or resume sends (operations.sql). */
  public static final String NOTIFY_PAYLOAD = "taskq:paused";

  private static final Logger LOG = LoggerFactory.getLogger(PausedTargets.class);
  private static final String ALL = "*";

  private final DataSource dataSource;
  private final String sql;
  private final long refreshNanos;
  private volatile boolean stale = true;
  private long readAt;
  private Set<String> queues = Set.of();
  private Set<String> actors = Set.of();

  /**
   * @param statements {@code operations.sql}
   * @param refreshNanos how old the view may get before a claim re-reads it (the poll interval)
   */
  public PausedTargets(DataSource dataSource, NamedStatements statements, long refreshNanos) {
    this.dataSource = dataSource;
    this.sql = statements.get("paused");
    this.refreshNanos = refreshNanos;
  }

  /** A pause or resume was notified: the next claim re-reads the view first. */
  public void changed() {
    stale = true;
  }

  /** {@code configured} without the paused queues (none at all while every queue is paused). */
  public List<String> unpausedQueues(List<String> configured) {
    refreshIfDue();
    return queues.contains(ALL) ? List.of() : without(configured, queues);
  }

  /** {@code configured} without the paused actors. */
  public List<String> unpausedActors(List<String> configured) {
    refreshIfDue();
    return without(configured, actors);
  }

  private static List<String> without(List<String> configured, Set<String> paused) {
    if (paused.isEmpty()) {
      return configured;
    }
    List<String> out = new ArrayList<>(configured);
    out.removeAll(paused);
    return out;
  }

  private synchronized void refreshIfDue() {
    long now = System.nanoTime();
    if (!stale && now - readAt < refreshNanos) {
      return;
    }
    stale = false;
    readAt = now;
    try {
      read();
    } catch (SQLException e) {
      LOG.warn("cannot read the paused queues and actors; keeping the last view: {}", e.toString());
    }
  }

  private void read() throws SQLException {
    Set<String> q = new HashSet<>();
    Set<String> a = new HashSet<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setQueryTimeout(5);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ("queue".equals(rs.getString("kind")) ? q : a).add(rs.getString("name"));
        }
      }
    }
    if (!q.equals(queues) || !a.equals(actors)) {
      LOG.info("paused queues {} and actors {}", q, a);
    }
    queues = Set.copyOf(q);
    actors = Set.copyOf(a);
  }
}
