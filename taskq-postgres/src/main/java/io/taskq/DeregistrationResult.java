package io.taskq;

import java.time.Duration;

/**
 * What {@link JobsClient#deregisterActor(String, boolean)} did (S13, F4).
 *
 * @param actor the actor
 * @param cancelled the actor's scheduled and pending jobs cancelled by a forced deregistration
 * @param batches the committed batches of that drain
 * @param deadlockRetries batch attempts retried after a deadlock
 * @param actorConfigDeleted whether an {@code actor_config} row was deleted (false when the actor
 *     was not registered)
 * @param schedulesDisabled cron schedules of the actor disabled (0 when the schema has none)
 * @param terminalHistory the actor's finished jobs left as history (hot table and archive)
 * @param slotsPurged concurrency-limit slot rows purged, when a purge was asked for
 * @param elapsed how long the operation took
 */
public record DeregistrationResult(
    String actor,
    long cancelled,
    int batches,
    int deadlockRetries,
    boolean actorConfigDeleted,
    int schedulesDisabled,
    long terminalHistory,
    long slotsPurged,
    Duration elapsed) {}
