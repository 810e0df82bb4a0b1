/** The reads behind the TaskQ root's probes and gauges: backlog, throughput, readiness ping. */
@NullMarked
package io.taskq.postgres.internal.observe;

import org.jspecify.annotations.NullMarked;
