package io.taskq.postgres.internal.operations;

import io.taskq.JobStatus;
import io.taskq.operations.JobCounts;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/** Adds the (status, queue, actor) groups of the {@code counts} statement up three ways. */
final class CountsBuilder {
  private final Map<JobStatus, Long> byStatus = new EnumMap<>(JobStatus.class);
  private final Map<String, Map<JobStatus, Long>> byQueue = new TreeMap<>();
  private final Map<String, Map<JobStatus, Long>> byActor = new TreeMap<>();

  void add(JobStatus status, String queue, String actor, long n) {
    byStatus.merge(status, n, Long::sum);
    byQueue.computeIfAbsent(queue, q -> new EnumMap<>(JobStatus.class)).merge(status, n, Long::sum);
    byActor.computeIfAbsent(actor, a -> new EnumMap<>(JobStatus.class)).merge(status, n, Long::sum);
  }

  JobCounts build(boolean includesArchive) {
    Map<String, Map<JobStatus, Long>> queues = new TreeMap<>();
    byQueue.forEach((k, v) -> queues.put(k, Map.copyOf(v)));
    Map<String, Map<JobStatus, Long>> actors = new TreeMap<>();
    byActor.forEach((k, v) -> actors.put(k, Map.copyOf(v)));
    return new JobCounts(byStatus, queues, actors, includesArchive);
  }
}
