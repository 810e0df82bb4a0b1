package io.taskq.postgres.internal.operations;

import io.taskq.JobStatus;
import io.taskq.operations.ActorInfo;
import io.taskq.operations.JobCounts;
import io.taskq.operations.Pause;
import io.taskq.operations.PauseTarget;
import io.taskq.operations.QueueInfo;
import io.taskq.postgres.internal.NamedStatements;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The queues and actors of a schema as an operator lists them (A8): the names come from the
 * registered actors, the jobs' counts and the pauses (never from a distinct scan of the jobs).
 */
final class Inventory {
  private final PostgresOperations ops;
  private final NamedStatements observe;

  Inventory(PostgresOperations ops) {
    this.ops = ops;
    this.observe = NamedStatements.load("io/taskq/postgres/sql/observe.sql", ops.schema());
  }

  List<QueueInfo> queues() {
    JobCounts counts = ops.counts(false);
    List<Registered> registered = registered();
    List<Pause> paused = ops.paused();
    Map<String, Duration> oldest = oldestPending();
    Set<String> names = new TreeSet<>(counts.byQueue().keySet());
    registered.forEach(r -> names.add(r.queue()));
    Set<String> pausedQueues = new TreeSet<>();
    for (Pause p : paused) {
      if (p.target().kind() == PauseTarget.Kind.QUEUE) {
        pausedQueues.add(p.target().name());
        if (!PauseTarget.ALL.equals(p.target().name())) {
          names.add(p.target().name());
        }
      }
    }
    boolean all = pausedQueues.contains(PauseTarget.ALL);
    List<QueueInfo> out = new ArrayList<>();
    for (String name : names) {
      out.add(
          new QueueInfo(
              name,
              counts.byQueue().getOrDefault(name, Map.of()),
              oldest.getOrDefault(name, Duration.ZERO),
              all || pausedQueues.contains(name)));
    }
    return out;
  }

  List<ActorInfo> actors() {
    JobCounts counts = ops.counts(false);
    Map<String, Registered> registered = new TreeMap<>();
    registered().forEach(r -> registered.put(r.actor(), r));
    Set<String> pausedActors = new TreeSet<>();
    ops.paused().stream()
        .filter(p -> p.target().kind() == PauseTarget.Kind.ACTOR)
        .forEach(p -> pausedActors.add(p.target().name()));
    Set<String> names = new TreeSet<>(counts.byActor().keySet());
    names.addAll(registered.keySet());
    names.addAll(pausedActors);
    List<ActorInfo> out = new ArrayList<>();
    for (String name : names) {
      Registered r = registered.get(name);
      Map<JobStatus, Long> jobs = counts.byActor().getOrDefault(name, Map.of());
      out.add(
          new ActorInfo(
              name, r == null ? "" : r.queue(), r != null, jobs, pausedActors.contains(name)));
    }
    return out;
  }

  private record Registered(String actor, String queue) {}

  private List<Registered> registered() {
    return ops.read(
        "read the registered actors",
        c -> c.prepareStatement(ops.statements().get("registered_actors")),
        rs -> new Registered(rs.getString("actor"), rs.getString("queue")));
  }

  private Map<String, Duration> oldestPending() {
    Map<String, Duration> out = new HashMap<>();
    ops.read(
        "read the queue backlog",
        c -> c.prepareStatement(observe.get("queue_backlog")),
        rs -> {
          out.put(
              rs.getString("queue"), Duration.ofNanos(Math.max(0, rs.getLong("oldest_us")) * 1000));
          return Boolean.TRUE;
        });
    return out;
  }
}
