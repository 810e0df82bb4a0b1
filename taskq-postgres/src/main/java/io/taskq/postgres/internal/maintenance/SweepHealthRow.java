package io.taskq.postgres.internal.maintenance;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A sweep's health as its {@link SweepRunner} holds it: the values of its {@code sweep_health} row,
 * which {@link SweepHealthTable} writes at the end of each loop tick.
 *
 * @param name the sweep's {@code sweep_name}
 * @param tier its batch-size tier: {@code fixed}, {@code full} or {@code reduced}
 * @param batchSize the batch size it runs with now
 * @param configured the configured batch size
 * @param lastRunAt when its last batch started, or null
 * @param lastSuccessAt when its last batch committed, or null
 * @param lastErrorAt when it last failed, or null
 * @param errorClass the last failure's class, or null
 * @param errorMessage the last failure's message, or null
 * @param consecutiveFailures the runs that failed in a row
 */
record SweepHealthRow(
    String name,
    String tier,
    int batchSize,
    int configured,
    @Nullable Instant lastRunAt,
    @Nullable Instant lastSuccessAt,
    @Nullable Instant lastErrorAt,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    int consecutiveFailures) {}
