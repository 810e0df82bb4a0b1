package io.taskq.cli;

import io.taskq.DeregistrationResult;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code actors deregister NAME}. */
@Command(
    name = "deregister",
    mixinStandardHelpOptions = true,
    description = {
      "Deregister an actor (S13). Refused while it has open jobs, unless --force: then its"
          + " scheduled and pending jobs are cancelled in committed batches (refused while any"
          + " runs), and its cron schedules are disabled."
    })
final class ActorsDeregisterCommand extends BaseCommand {
  @Parameters(paramLabel = "ACTOR", description = "The actor.")
  String name = "";

  @Option(names = "--force", description = "Cancel its scheduled and pending jobs first.")
  boolean force;

  ActorsDeregisterCommand(Session session) {
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
      session.out.println(line(r));
    }
    return ExitCodes.OK;
  }

  private static String line(DeregistrationResult r) {
    return "actor '"
        + r.actor()
        + "' deregistered: "
        + r.cancelled()
        + " jobs cancelled, "
        + r.schedulesDisabled()
        + " schedules disabled"
        + (r.actorConfigDeleted() ? "" : " (it was not registered)");
  }
}
