package io.taskq.postgres.internal.caps;

import io.taskq.postgres.internal.NamedStatements;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * S10, the per-worker keyed eviction and reclaim drain: on every worker (not leader-gated, since a
 * non-leader's registry would otherwise never be evicted), every {@code sweep_interval}, evict the
 * registry's idle scopes, then delete the evicted keyed scopes' free {@code reservation_slots} rows
 * in one statement (held rows stay; a key used again gets its rows back on demand). With nothing
 * pending it borrows no connection.
 */
public final class KeyedReservationDrain implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(KeyedReservationDrain.class);

  private final DataSource dataSource;
  private final ReservationRegistry registry;
  private final String deleteSql;
  private final String workerId;
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong drains = new AtomicLong();

  /**
   * @param workerId this worker's id: names whose rows are still held by its own jobs stay pending
   */
  public KeyedReservationDrain(
      DataSource dataSource,
      NamedStatements capsStatements,
      ReservationRegistry registry,
      String workerId) {
    this.dataSource = dataSource;
    this.workerId = workerId;
    this.registry = registry;
    this.deleteSql = capsStatements.get("delete_evicted_slots");
  }

  /** One tick: evict, then drain; returns the slot rows deleted. */
  public int tick() throws Exception {
    registry.evictIdle();
    int[] rows = {0};
    registry.drainEvicted(
        names -> {
          List<String> keep = new ArrayList<>();
          rows[0] = delete(names, keep);
          return keep;
        });
    return rows[0];
  }

  private int delete(List<String> names, List<String> keep) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(deleteSql)) {
      c.setAutoCommit(true);
      Array array = c.createArrayOf("text", names.toArray());
      s.setArray(1, array);
      s.setString(2, workerId);
      s.setArray(3, array);
      int n;
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        n = rs.getInt("deleted");
        Array held = rs.getArray("still_held");
        if (held != null) {
          for (Object name : (Object[]) held.getArray()) {
            keep.add((String) name);
          }
        }
      }
      drains.incrementAndGet();
      deleted.addAndGet(n);
      return n;
    }
  }

  /**
   * The scheduled form: a failed tick is logged and retried on the next one (names stay pending).
   */
  @Override
  public void run() {
    try {
      tick();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("keyed reservation drain failed; retrying next tick: {}", e.toString());
    }
  }

  /** Drain statements run so far (one per tick with something pending). */
  public long drains() {
    return drains.get();
  }

  /** Slot rows deleted so far. */
  public long deleted() {
    return deleted.get();
  }
}
