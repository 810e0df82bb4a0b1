/**
 * OpenTelemetry tracing for TaskQ (P6): {@link io.taskq.opentelemetry.TaskQTracing} gives an
 * enqueue interceptor and a job interceptor that trace each enqueue and each attempt, linked by W3C
 * trace context carried in the job's labels. See {@code docs/opentelemetry.md}.
 */
@NullMarked
package io.taskq.opentelemetry;

import org.jspecify.annotations.NullMarked;
