package io.taskq.postgres.internal.feed;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only fault injection points inside the real watch loop (Q1). Each feed owns its seams, so
 * tests running side by side cannot disturb each other.
 *
 * <p>Every seam is born disarmed: its check does nothing until a test arms it. Each armed fault is
 * consumed by one check, which throws a fabricated transient {@link SQLException} exactly where a
 * real database failure would surface, so the loop's own reconnect and backoff code runs. Seams
 * count what they fired, so a test can check that exactly the armed number was consumed.
 */
public final class FeedFaults {
  private final Seam listen = new Seam("feed.listen");
  private final Seam poll = new Seam("feed.poll");

  /** Checked each time the watch opens its listen connection, before LISTEN. */
  public Seam listen() {
    return listen;
  }

  /** Checked before each poll statement of the watch. */
  public Seam poll() {
    return poll;
  }

  /** One injection point. */
  public static final class Seam {
    private final String name;
    private final AtomicInteger armed = new AtomicInteger();
    private final AtomicInteger fired = new AtomicInteger();

    Seam(String name) {
      this.name = name;
    }

    /** Adds {@code faults} faults to the next checks. */
    public void arm(int faults) {
      if (faults < 1) {
        throw new IllegalArgumentException("faults must be at least 1, was " + faults);
      }
      armed.addAndGet(faults);
    }

    /**
     * Throws one armed fault, if any is left.
     *
     * @throws SQLException a fabricated transient connection failure (SQLSTATE 08006)
     */
    public void check() throws SQLException {
      if (armed.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
        fired.incrementAndGet();
        throw new SQLTransientConnectionException("injected fault at seam '" + name + "'", "08006");
      }
    }

    /** Faults armed and not yet consumed. */
    public int remaining() {
      return armed.get();
    }

    /** Faults thrown so far. */
    public int fired() {
      return fired.get();
    }
  }
}
