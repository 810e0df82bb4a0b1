package io.taskq.core;

import java.time.Instant;
import java.util.Optional;

/**
 * What a running handler may know about its job.
 *
 * <p>The values are fixed when the job is claimed, except {@link #isCancelRequested()}, which turns
 * true (and stays true) when someone cancels the job (L8) or when the worker learns that its lease
 * on the job was lost. Either way the attempt's outcome will not count the way a normal return
 * would: a cancelled job ends {@code cancelled}, and a job whose lease was lost is being run by
 * another worker, so this attempt's completion is discarded (D9). A handler that polls the flag can
 * stop early and save the work.
 */
public interface JobContext {
  /** The job's id. */
  long jobId();

  /** The name of the actor the job was enqueued for. */
  String actor();

  /** The queue the job was claimed from. */
  String queue();

  /** This attempt's number, starting at 1. */
  int attempt();

  /** The attempt bound stamped on the job at enqueue; the job fails for good after it. */
  int maxAttempts();

  /**
   * True once a cancel was requested for this job, or the worker lost its lease on it; stays true.
   */
  boolean isCancelRequested();

  /**
   * The job's {@code schedule_to_close} deadline, if it has one. The instant is the database
   * clock's; a later sweep fails jobs that run past it.
   */
  Optional<Instant> deadline();
}
