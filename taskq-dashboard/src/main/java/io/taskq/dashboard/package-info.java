/**
 * The TaskQ web dashboard (W1-W6): server-rendered pages over the public TaskQ API, with its
 * security model built in.
 *
 * <p>{@link io.taskq.dashboard.Dashboard} is the server-agnostic core: it turns a {@link
 * io.taskq.dashboard.DashboardRequest} into a {@link io.taskq.dashboard.DashboardResponse}. {@link
 * io.taskq.dashboard.DashboardHttpHandler} mounts it on the JDK's built-in HTTP server and {@link
 * io.taskq.dashboard.DashboardServer} runs it standalone from the {@code TASKQ_DASHBOARD_*}
 * settings; other servers (a servlet container, Spring) adapt their request the same way. See
 * {@code docs/dashboard.md}.
 */
@NullMarked
package io.taskq.dashboard;

import org.jspecify.annotations.NullMarked;
