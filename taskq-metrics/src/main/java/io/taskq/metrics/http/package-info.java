/**
 * The optional HTTP endpoint (D15): {@code /live}, {@code /ready} (the O7 body) and {@code
 * /metrics} (Prometheus text).
 *
 * <p>Each handler is a plain object whose {@code respond()} returns an {@link
 * io.taskq.metrics.http.HttpReply}, so an application can mount it in its own server; {@link
 * io.taskq.metrics.http.HttpEndpoint} mounts them on the JDK's built-in server, off by default and
 * bound to 127.0.0.1 by default.
 */
@NullMarked
package io.taskq.metrics.http;

import org.jspecify.annotations.NullMarked;
