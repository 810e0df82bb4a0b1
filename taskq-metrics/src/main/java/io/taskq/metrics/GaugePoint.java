package io.taskq.metrics;

import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

/**
 * One gauge value of a {@link GaugeSampler}'s reading: the sampler registers the gauge on first
 * sight and sets it to {@code value} on each reading.
 *
 * @param meter the meter name ({@link MeterNames})
 * @param description the meter's description
 * @param baseUnit {@code seconds} for a duration, else null
 * @param tags its bounded tags
 * @param value the value read
 */
record GaugePoint(
    String meter, String description, @Nullable String baseUnit, Tags tags, double value) {}
