package io.taskq.operations;

import io.taskq.JobStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Operations#discard(long, String, String)} did.
 *
 * @param id the job asked about
 * @param outcome whether the job was discarded, and if not, why
 * @param status the job's status after the call ({@code failed} when discarded), {@code null} for
 *     an unknown job
 * @param finishedAt when the discarded job ended, {@code null} when not discarded
 */
public record DiscardResult(
    long id, Outcome outcome, @Nullable JobStatus status, @Nullable Instant finishedAt) {

  /** Why a discard did or did not happen. */
  public enum Outcome {
    /** The job ended {@code failed} for good, error class {@value Operations#DISCARDED}. */
    DISCARDED,
    /** No such job in this schema. */
    NOT_FOUND,
    /** The job is running: an attempt is in a handler; cancel it instead. */
    RUNNING,
    /** The job had already ended (succeeded, failed, crashed or cancelled). */
    FINISHED,
    /** The job was pruned into the archive (it had ended long ago). */
    ARCHIVED
  }

  /** {@return whether the job was discarded} */
  public boolean discarded() {
    return outcome == Outcome.DISCARDED;
  }

  /**
   * One sentence for an operator: what happened, or why nothing did and what to do instead (the CLI
   * and the dashboard show it as is).
   *
   * @return the sentence
   */
  public String message() {
    String statusName = status == null ? "unknown" : status.dbValue();
    return switch (outcome) {
      case DISCARDED -> "job " + id + " discarded: it ended failed (" + Operations.DISCARDED + ")";
      case NOT_FOUND -> "no job " + id;
      case RUNNING ->
          "job "
              + id
              + " is running and cannot be discarded; cancel it instead (its handler sees the"
              + " cancel request), or wait for the attempt to end";
      case FINISHED ->
          "job "
              + id
              + " has already ended ("
              + statusName
              + "); only a scheduled or pending job"
              + " can be discarded";
      case ARCHIVED ->
          "job "
              + id
              + " is archived ("
              + statusName
              + "); only a scheduled or pending job can be"
              + " discarded";
    };
  }
}
