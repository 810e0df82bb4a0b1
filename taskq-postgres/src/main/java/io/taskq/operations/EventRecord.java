package io.taskq.operations;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One lifecycle event of a job (A2): {@code cancelled}, {@code retried}, {@code reclaimed}, {@code
 * manually_retried}, {@code snoozed}, {@code discarded}, ...; kept for the event retention period
 * (S8).
 *
 * @param eventId the event's id
 * @param kind what happened, such as {@code retried}
 * @param attempt the job's attempt when it happened
 * @param errorClass the error class, else {@code null}
 * @param errorMessage the error message, else {@code null}
 * @param occurredAt when it happened
 * @param disposition the status the event left the job in, where it says
 * @param note what an operator or handler said (who retried it, a discard's reason), or {@code
 *     null}
 */
public record EventRecord(
    long eventId,
    String kind,
    int attempt,
    @Nullable String disposition,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    @Nullable String note,
    Instant occurredAt) {}
