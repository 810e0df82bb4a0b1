package io.taskq;

/**
 * A deregistration refused up front (F4): the actor still has jobs a worker is running (or, for a
 * plain deregistration, any open job). Nothing was changed; wait for them to finish (or cancel
 * them) and call again.
 */
public final class ActorBusyException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String actor;
  private final long jobs;

  public ActorBusyException(String actor, long jobs, String what) {
    super(
        "cannot deregister actor '"
            + actor
            + "': it has "
            + jobs
            + " "
            + what
            + (jobs == 1 ? " job" : " jobs")
            + "; nothing was changed");
    this.actor = actor;
    this.jobs = jobs;
  }

  public String actor() {
    return actor;
  }

  /** The jobs that made the call refuse. */
  public long jobs() {
    return jobs;
  }
}
