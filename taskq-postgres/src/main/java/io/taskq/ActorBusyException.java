package io.taskq;

/**
 * A deregistration refused up front (F4): the actor still has jobs a worker is running (or, for a
 * plain deregistration, any open job). Nothing was changed; wait for them to finish (or cancel
 * them) and call again.
 */
public final class ActorBusyException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** The actor that was not deregistered. */
  private final String actor;

  /** The jobs that made the call refuse. */
  private final long jobs;

  /**
   * A refusal to deregister {@code actor}, which has {@code jobs} jobs in the state {@code what}
   * names.
   *
   * @param actor the actor's name
   * @param jobs the jobs that made the call refuse
   * @param what the state of those jobs, such as {@code running}
   */
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

  /** {@return the actor that was not deregistered} */
  public String actor() {
    return actor;
  }

  /** {@return the jobs that made the call refuse} */
  public long jobs() {
    return jobs;
  }
}
