package io.taskq.metrics.http;

/**
 * One endpoint's answer to a GET, as a plain object an application can mount in any server.
 *
 * <p>Implementations are thread-safe and never put a secret (a password, a connection string, an
 * exception message from the database driver) into the reply.
 */
@FunctionalInterface
public interface EndpointHandler {
  /** {@return the reply to a GET now} */
  HttpReply respond();
}
