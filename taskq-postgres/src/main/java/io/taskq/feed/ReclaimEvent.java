package io.taskq.feed;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One crash-reclaim event: the lease-reclaim sweep (S1) took a job back from a worker that stopped
 * heartbeating or let its lease expire.
 *
 * @param eventId the event's id in {@code job_events}; unique, but not the feed's order
 * @param jobId the job reclaimed
 * @param actor the job's actor
 * @param queue the job's queue
 * @param attempt the attempt that was cut short
 * @param disposition what became of the job: {@code repended} (back to pending for another
 *     attempt), {@code crashed} (no attempts left) or {@code cancelled} (a cancel was requested);
 *     null only for rows written without one
 * @param errorClass why: {@code LeaseExpired} or {@code WorkerLost} from the sweep
 * @param errorMessage the reason in words
 * @param occurredAt when the sweep wrote the event (database clock)
 * @param cursor the cursor just after this event: store it once the event is handled
 */
public record ReclaimEvent(
    long eventId,
    long jobId,
    String actor,
    String queue,
    int attempt,
    @Nullable String disposition,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    Instant occurredAt,
    FeedCursor cursor) {}
