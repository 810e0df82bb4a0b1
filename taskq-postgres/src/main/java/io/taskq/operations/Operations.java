package io.taskq.operations;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Operating the queue (A1-A4): what an operator does during an incident without writing SQL. A
 * handle from the TaskQ root ({@code taskq.operations()}); a producer-only process (no actors, no
 * workers) has it too. Every call runs under the client's statement timeout; the bulk retry runs in
 * committed batches under the event writers' timeout (B2). {@code docs/operations.md} has the
 * semantics and examples.
 *
 * <pre>{@code
 * Operations ops = taskq.operations();
 * JobPage failed = ops.search(JobFilter.builder().statuses(JobStatus.FAILED).build(), 50);
 * ops.retry(failed.jobs().get(0).id());
 * ops.pause(PauseTarget.queue("emails"), "ops-alice", "SMTP provider down");
 * }</pre>
 *
 * <p>Any call throws {@link io.taskq.JobStoreException} when the database fails or times out.
 */
public interface Operations {
  /** The largest page a search returns. */
  int MAX_PAGE_SIZE = 1000;

  /** The error class of a job an operator discarded ({@link #discard(long, String, String)}). */
  String DISCARDED = "Discarded";

  /**
   * {@return the newest jobs matching {@code filter}, at most {@code pageSize} of them (A1)}
   *
   * @param filter which jobs
   * @param pageSize the most jobs on the page
   * @throws IllegalArgumentException when {@code pageSize} is outside 1..{@value #MAX_PAGE_SIZE}
   */
  JobPage search(JobFilter filter, int pageSize);

  /**
   * {@return the next page: the newest matching jobs with an id below {@code cursor} (a page's
   * {@link JobPage#nextCursor()})} Keyset paging: jobs enqueued meanwhile never shift a page.
   *
   * @param filter which jobs
   * @param pageSize the most jobs on the page
   * @param cursor the previous page's {@link JobPage#nextCursor()}
   * @throws IllegalArgumentException when {@code pageSize} is outside 1..{@value #MAX_PAGE_SIZE}
   */
  JobPage search(JobFilter filter, int pageSize, long cursor);

  /** The largest bound {@link #count(JobFilter, int)} takes. */
  int MAX_COUNT_BOUND = 1_000_000;

  /**
   * How many jobs match {@code filter}, counting no further than {@code atMost} (a bulk action's
   * preview, W2): the walk of a search, ids only, so it costs about {@code min(matches, atMost)}
   * index entries whatever the table's size, and never a scan of the table.
   *
   * @param filter the jobs to count
   * @param atMost where counting stops, 1..{@value #MAX_COUNT_BOUND}
   * @return the count, exact unless {@link BoundedCount#capped()}
   * @throws IllegalArgumentException when {@code atMost} is out of range
   */
  BoundedCount count(JobFilter filter, int atMost);

  /** {@return the jobs per status, queue and actor in the hot table (A1)} */
  JobCounts counts();

  /**
   * {@return the jobs per status, queue and actor, the archive's counted too when {@code
   * includeArchive}}
   *
   * @param includeArchive true to count archived jobs too
   */
  JobCounts counts(boolean includeArchive);

  /**
   * {@return one job's full story (A2), archived jobs included; empty for an unknown id}
   *
   * @param id the job's id
   */
  Optional<JobDetail> detail(long id);

  /**
   * Retries a failed, crashed or cancelled job now (A3): it becomes pending, keeps its attempt
   * count (one more attempt is allowed when it had none left), and a {@code manually_retried} event
   * is written with it. Any other job is left alone and the result says why.
   *
   * @param id the job's id
   * @return what the call did
   */
  RetryResult retry(long id);

  /**
   * Retries a failed, crashed or cancelled job at {@code runAt} (scheduled until then; now when
   * {@code null} or past), noting {@code by} (who asked, for the event; may be {@code null}).
   *
   * @param id the job's id
   * @param runAt when to run it, or {@code null} for now
   * @param by who asked, or {@code null}
   * @return what the call did
   */
  RetryResult retry(long id, @Nullable Instant runAt, @Nullable String by);

  /**
   * Discards a job that has not started (a scheduled or pending one, including a job waiting for
   * its next attempt after a failure): it ends {@code failed} for good, with the error class
   * {@value #DISCARDED} and the message {@code "discarded by <by>: <reason>"}, and a {@code
   * discarded} event whose note is {@code reason}, in one statement. The attempt count is kept and
   * no attempt row is written (none ran); a batch member counts towards its batch as failed. A
   * {@link #retry} brings it back. A running job is refused ({@link DiscardResult.Outcome#RUNNING}:
   * cancel it instead), as is a job that has ended ({@code FINISHED}, {@code ARCHIVED}) or an
   * unknown id ({@code NOT_FOUND}); {@link DiscardResult#message()} says so in one sentence.
   *
   * @param id the job's id
   * @param reason why (required: it is the event's note), at most 1000 characters
   * @param by who discards, or {@code null}
   * @return what the call did
   * @throws IllegalArgumentException when {@code reason} is blank or longer than 1000 characters
   */
  DiscardResult discard(long id, String reason, @Nullable String by);

  /**
   * {@return the result of {@link #retryWhere(JobFilter, RetryWhereListener)} without a progress
   * listener}
   *
   * @param filter which jobs to retry
   */
  RetryWhereResult retryWhere(JobFilter filter);

  /**
   * Retries every failed, crashed and cancelled job matching {@code filter} (of those statuses only
   * the ones it names, when it names some) in committed batches of {@code
   * TASKQ_EVENT_WRITER_BATCH_SIZE} jobs (F1-F3): each batch retries its jobs and writes their
   * events in one transaction; a deadlocked batch is retried; the drain ends on a short window.
   * Only jobs that existed and had finished when the call started are matched, so a re-run after an
   * interruption retries the rest only and a job retried here that fails again is not retried
   * twice.
   *
   * @param filter which jobs to retry
   * @param listener told after each committed batch
   * @return the totals
   * @throws IllegalArgumentException when the filter names no actor, queue, label, error class or
   *     time range and was not built from {@link JobFilter#everything()}, or names only statuses
   *     that cannot be retried
   * @throws RetryWhereException when a batch fails; the batches before it stay committed
   */
  RetryWhereResult retryWhere(JobFilter filter, RetryWhereListener listener);

  /**
   * Retries every job {@code filter} matches exactly like {@link #retryWhere(JobFilter,
   * RetryWhereListener)}, naming who asked: each {@code manually_retried} event's note is {@code
   * "retried by <by> (bulk retry)"} ({@code "bulk retry"} when {@code by} is null or blank), as
   * {@link #retry(long, Instant, String)} notes {@code "retried by <by>"} for one job.
   *
   * @param filter which jobs to retry
   * @param by who retries (an operator's name, for the audit trail), or {@code null}
   * @param listener told after each committed batch
   * @return the totals
   * @throws IllegalArgumentException as {@link #retryWhere(JobFilter, RetryWhereListener)}
   * @throws RetryWhereException when a batch fails; the batches before it stay committed
   */
  RetryWhereResult retryWhere(JobFilter filter, @Nullable String by, RetryWhereListener listener);

  /**
   * Pauses a queue, every queue, or an actor (A4): stored in the database, so it holds across
   * restarts and on every worker, which stop claiming its jobs within one poll, and at once through
   * the wake channel. Running jobs finish; enqueues, cron fires and scheduled promotion go on (the
   * jobs wait, pending).
   *
   * @param target the queue, every queue, or the actor
   * @param by who pauses (shown by {@link #paused()} and named in the operations log), or {@code
   *     null}
   * @param reason why, or {@code null}
   * @return true when the target was not paused before (a second pause keeps the first's time)
   */
  boolean pause(PauseTarget target, @Nullable String by, @Nullable String reason);

  /**
   * Resumes a paused queue or actor without naming who asked; see {@link #resume(PauseTarget,
   * String)}.
   *
   * @param target the queue, every queue, or the actor
   * @return true when it was paused
   */
  boolean resume(PauseTarget target);

  /**
   * Resumes a paused queue or actor, naming who asked: the stored pause is deleted and workers
   * claim its jobs again at once. The operations log line of the resume names {@code by} and the
   * pause it ended (who paused it, when and why), as a pause's line names its author; the pause
   * itself is gone, so {@link #paused()} no longer lists it.
   *
   * @param target the queue, every queue, or the actor
   * @param by who resumes (an operator's name, for the audit trail), or {@code null}
   * @return true when it was paused
   */
  boolean resume(PauseTarget target, @Nullable String by);

  /** {@return every stored pause} */
  List<Pause> paused();

  /** {@return every queue that has jobs, a registered actor or a pause, with its counts (A8)} */
  List<QueueInfo> queues();

  /** {@return every registered actor and every actor with jobs, with its counts (A8)} */
  List<ActorInfo> actors();

  /**
   * {@return the session leading the schema's maintenance now (M1), or empty when none holds the
   * lock}
   */
  Optional<LeaderInfo> leader();

  /**
   * {@return the maintenance sweeps' health as the leader last wrote it, with the lock holder now}
   * Readable from any process (the leader writes table {@code sweep_health} after each tick of its
   * loops): each sweep's last run and success, last error, breaker tier, batch size, consecutive
   * failures and stall, with the row's age and {@linkplain SweepHealth.Freshness freshness}. Two
   * small reads (the lock holder, a handful of rows); empty sweeps before any leader has written.
   */
  SweepHealth sweepHealth();

  /**
   * {@return jobs per queue that ended failed or crashed at or after {@code since} (A8)}
   *
   * @param since the earliest end time counted
   */
  Map<String, Long> failuresSince(Instant since);

  /**
   * Jobs per actor that ended failed or crashed at or after {@code since} (the dashboard's actors
   * page, W1).
   *
   * @param since the start of the window
   * @return actor name to the number of such jobs; actors without one are absent
   */
  Map<String, Long> actorFailuresSince(Instant since);

  /** The bound of each count of {@link #sweepBacklog()}. */
  int SWEEP_BACKLOG_BOUND = 10_000;

  /**
   * The leader-side backlog (O1 backlog detection, the {@code
   * taskq.maintenance_leader.sweep_backlog} gauge): for each sweep that acts on eligible rows
   * ({@code reclaim_expired_locks} (its lease arm), {@code sweep_deadline_exceeded}, {@code
   * scheduled_to_pending}, {@code sweep_leaked_reservation_slots}), how many rows it would act on
   * now, counted up to {@value #SWEEP_BACKLOG_BOUND}. One statement, each count a bounded range of
   * its sweep's own index. A backlog that stays above zero while the fleet dispatches is the
   * ratchet (guide §2): the leader is not draining.
   *
   * @return sweep name to its bounded count, every sweep present
   */
  Map<String, BoundedCount> sweepBacklog();

  /**
   * {@return pending jobs per actor and the age of the oldest runnable one (O1 per-actor backlog,
   * the {@code taskq.actor.depth} and {@code taskq.actor.oldest_pending_age} gauges)} One grouped
   * read of the pending-jobs index; actors without pending jobs are absent.
   */
  List<ActorBacklog> actorBacklog();

  /**
   * {@return the concurrency caps' reservation slots (O1 reservation slots, L7): per queue cap and
   * actor cap the slots held and the slots there are, keyed caps summed under {@code
   * ReservationSlots.ALL_KEYS}} Scopes with no slot rows yet (no job ran under the cap) are absent.
   */
  List<ReservationSlots> reservationSlots();
}
