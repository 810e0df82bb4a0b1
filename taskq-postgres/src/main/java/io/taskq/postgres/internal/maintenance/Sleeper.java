package io.taskq.postgres.internal.maintenance;

import java.time.Duration;

/** Waits between retry attempts; injected so a test can observe the backoffs it asked for. */
@FunctionalInterface
interface Sleeper {
  /** The real one. */
  Sleeper SYSTEM = d -> Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));

  void sleep(Duration duration) throws InterruptedException;
}
