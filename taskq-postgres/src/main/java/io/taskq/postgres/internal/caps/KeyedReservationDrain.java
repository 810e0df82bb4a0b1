package io.taskq.postgres.internal.caps;

import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * S10, the per-worker keyed eviction and reclaim drain: on every worker (not leader-gated, since a
 * non-leader's registry would otherwise never be evicted), every {@code sweep_interval}, evict the
 * registry's idle scopes, then delete the evicted keyed scopes' free, idle {@code
 * reservation_slots} rows in one statement. With nothing pending it borrows no connection.
 */
public final class KeyedReservationDrain implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(KeyedReservationDrain.class);

  private final DataSource dataSource;
  private final ReservationRegistry registry;
  private final String deleteSql;
  private final long idleMillis;
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong drains = new AtomicLong();

  /**
   * @param idle how long a scope's rows must have been unused before the drain deletes them (the
   *     registry's idle time)
   */
  public KeyedReservationDrain(
      DataSource dataSource,
      NamedStatements capsStatements,
      ReservationRegistry registry,
      Duration idle) {
    this.dataSource = dataSource;
    this.registry = registry;
    this.deleteSql = capsStatements.get("delete_evicted_slots");
    this.idleMillis = idle.toMillis();
  }

  /** One tick: evict, then drain; returns the slot rows deleted. */
  public int tick() throws Exception {
    registry.evictIdle();
    int[] rows = {0};
    registry.drainEvicted(names -> rows[0] = delete(names));
    return rows[0];
  }

  private int delete(List<String> names) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(deleteSql)) {
      c.setAutoCommit(true);
      s.setArray(1, c.createArrayOf("text", names.toArray()));
      s.setLong(2, idleMillis);
      int n = s.executeUpdate();
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
