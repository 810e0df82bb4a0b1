package io.taskq.metrics.http;

/** Where the TaskQ process is in its lifecycle, as {@code /ready} reports it. */
public enum ProcessState {
  /** Starting: not ready yet (503). */
  STARTING,
  /** Running: ready unless the database is unreachable. */
  RUNNING,
  /** Stopping: draining, no longer ready (503). */
  STOPPING;

  /** {@return the lower-case name the JSON body uses} */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
