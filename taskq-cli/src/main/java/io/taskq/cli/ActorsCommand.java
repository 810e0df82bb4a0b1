package io.taskq.cli;

import io.taskq.DeregistrationResult;
import io.taskq.JobStatus;
import io.taskq.operations.ActorInfo;
import io.taskq.operations.PauseTarget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code taskq actors}: list, pause, resume and deregister actors. */
@Command(
    name = "actors",
    mixinStandardHelpOptions = true,
    description = "List, pause, resume and deregister actors.",
    subcommands = {
      ActorsCommand.ListActors.class,
      ActorsCommand.PauseActor.class,
      ActorsCommand.ResumeActor.class,
      ActorsCommand.DeregisterActor.class
    })
final class ActorsCommand extends Group {
  /** {@code actors list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Every actor, counts, pause.")
  static final class ListActors extends BaseCommand {
    ListActors(Session session) {
      super(session);
    }

    @Override
    int run() {
      List<ActorInfo> actors = ops().actors();
      if (json()) {
        printJson(
            actors.stream()
                .map(
                    a -> {
                      Map<String, Object> m = new LinkedHashMap<>();
                      m.put("actor", a.name());
                      m.put("queue", a.queue());
                      m.put("registered", a.registered());
                      m.put("counts", Rendering.counts(a.counts()));
                      m.put("paused", a.paused());
                      return m;
                    })
                .toList());
        return ExitCodes.OK;
      }
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
      t.print(session.out);
      return ExitCodes.OK;
    }
  }

  /** {@code actors pause NAME}. */
  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = "Pause an actor: no worker claims its jobs until it is resumed.")
  static final class PauseActor extends BaseCommand {
    @Parameters(paramLabel = "ACTOR", description = "The actor.")
    String name = "";

    @Option(names = "--reason", description = "Why.")
    @Nullable String reason;

    @Option(names = "--by", description = "Who pauses (default: $USER).")
    @Nullable String by;

    PauseActor(Session session) {
      super(session);
    }

    @Override
    int run() {
      return Pausing.pause(this, PauseTarget.actor(name), by, reason);
    }
  }

  /** {@code actors resume NAME}. */
  @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused actor.")
  static final class ResumeActor extends BaseCommand {
    @Parameters(paramLabel = "ACTOR", description = "The actor.")
    String name = "";

    ResumeActor(Session session) {
      super(session);
    }

    @Override
    int run() {
      return Pausing.resume(this, PauseTarget.actor(name));
    }
  }

  /** {@code actors deregister NAME}. */
  @Command(
      name = "deregister",
      mixinStandardHelpOptions = true,
      description = {
        "Deregister an actor (S13). Refused while it has open jobs, unless --force: then its"
            + " scheduled and pending jobs are cancelled in committed batches (refused while any"
            + " runs), and its cron schedules are disabled."
      })
  static final class DeregisterActor extends BaseCommand {
    @Parameters(paramLabel = "ACTOR", description = "The actor.")
    String name = "";

    @Option(names = "--force", description = "Cancel its scheduled and pending jobs first.")
    boolean force;

    DeregisterActor(Session session) {
      super(session);
    }

    @Override
    int run() {
      DeregistrationResult r = taskq().jobs().deregisterActor(name, force);
      if (json()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("actor", r.actor());
        m.put("cancelled", r.cancelled());
        m.put("actor_config_deleted", r.actorConfigDeleted());
        m.put("schedules_disabled", r.schedulesDisabled());
        printJson(m);
      } else {
        session.out.println(
            "actor '"
                + r.actor()
                + "' deregistered: "
                + r.cancelled()
                + " jobs cancelled, "
                + r.schedulesDisabled()
                + " schedules disabled"
                + (r.actorConfigDeleted() ? "" : " (it was not registered)"));
      }
      return ExitCodes.OK;
    }
  }
}
