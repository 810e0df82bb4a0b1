package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.operations.ActorInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code actors list}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "Every actor, counts, pause.")
final class ActorsListCommand extends BaseCommand {
  ActorsListCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    List<ActorInfo> actors = ops().actors();
    if (json()) {
      printJson(actors.stream().map(ActorsListCommand::json).toList());
      return ExitCodes.OK;
    }
    table(actors).print(session.out);
    return ExitCodes.OK;
  }

  private static Table table(List<ActorInfo> actors) {
    Table t = new Table("ACTOR", "QUEUE", "REGISTERED", "PENDING", "RUNNING", "FAILED", "PAUSED");
    for (ActorInfo a : actors) {
      t.row(
          a.name(),
          a.queue(),
          a.registered() ? "yes" : "no",
          a.count(JobStatus.PENDING),
          a.count(JobStatus.RUNNING),
          a.count(JobStatus.FAILED),
          a.paused() ? "yes" : "no");
    }
    return t;
  }

  private static Map<String, Object> json(ActorInfo a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("actor", a.name());
    m.put("queue", a.queue());
    m.put("registered", a.registered());
    m.put("counts", Rendering.counts(a.counts()));
    m.put("paused", a.paused());
    return m;
  }
}
