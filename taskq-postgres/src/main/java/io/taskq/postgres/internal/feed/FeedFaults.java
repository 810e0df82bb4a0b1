package io.taskq.postgres.internal.feed;

import io.taskq.postgres.internal.FaultSeam;

/**
 * Test-only fault injection points inside the real watch loop (Q1), born disarmed; see {@link
 * FaultSeam}. Each feed owns its seams, so tests running side by side cannot disturb each other.
 */
public final class FeedFaults {
  private final FaultSeam listen = new FaultSeam("feed.listen");
  private final FaultSeam poll = new FaultSeam("feed.poll");

  /** Checked each time the watch opens its listen session, before LISTEN. */
  public FaultSeam listen() {
    return listen;
  }

  /** Checked before each poll statement of the watch. */
  public FaultSeam poll() {
    return poll;
  }
}
