package io.taskq.postgres.internal;

import java.util.List;

/**
 * What a worker's {@code workers} row says about it (L10).
 *
 * @param id the worker id: lower-case letters and digits, short enough for a NOTIFY channel name
 * @param queues the queues it claims from
 * @param concurrency its handler slots
 */
public record WorkerIdentity(
    String id, String hostname, long pid, List<String> queues, int concurrency) {
  public WorkerIdentity {
    queues = List.copyOf(queues);
  }
}
