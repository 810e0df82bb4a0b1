package io.taskq.cli;

import io.taskq.operations.DiscardResult;
import io.taskq.operations.Operations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code taskq jobs discard}: ends jobs that have not started as failed for good, with a reason.
 */
@Command(
    name = "discard",
    mixinStandardHelpOptions = true,
    description = {
      "Discard jobs that have not started (scheduled or pending, including one waiting for its"
          + " next attempt): each ends failed for good, error class Discarded, and a 'discarded'"
          + " event carries the reason.",
      "A running job is refused (cancel it instead), as is one that has ended.",
      "Exit code: 0 all discarded, 3 an id is unknown, 6 a job's state refused it."
    })
final class JobsDiscardCommand extends BaseCommand {
  @Parameters(paramLabel = "ID", arity = "1..*", description = "Job ids to discard.")
  List<Long> ids = new ArrayList<>();

  @Option(
      names = "--reason",
      required = true,
      paramLabel = "TEXT",
      description = "Why (required; the event's note, at most 1000 characters).")
  String reason = "";

  @Option(names = "--by", paramLabel = "WHO", description = "Who discards (default: $USER).")
  @Nullable String by;

  JobsDiscardCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    if (reason.isBlank()) {
      throw new IllegalArgumentException("--reason must say why the job is discarded");
    }
    Operations ops = ops();
    String who = Operator.of(by);
    int missing = 0;
    int refused = 0;
    List<Object> results = new ArrayList<>();
    for (long id : ids) {
      DiscardResult r = ops.discard(id, reason, who);
      missing += r.outcome() == DiscardResult.Outcome.NOT_FOUND ? 1 : 0;
      refused += r.discarded() || r.outcome() == DiscardResult.Outcome.NOT_FOUND ? 0 : 1;
      results.add(json(id, r));
      printLine(r);
    }
    if (json()) {
      printJson(results);
    }
    return missing > 0 ? ExitCodes.NOT_FOUND : refused > 0 ? ExitCodes.REFUSED : ExitCodes.OK;
  }

  /** Without --json: a discarded job's line on stdout, a refusal's on stderr. */
  private void printLine(DiscardResult r) {
    if (!json()) {
      (r.discarded() ? session.out : session.err)
          .println(r.discarded() ? r.message() : "taskq: " + r.message());
    }
  }

  private static Map<String, Object> json(long id, DiscardResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
    m.put("status", r.status() == null ? null : r.status().dbValue());
    m.put("message", r.message());
    return m;
  }
}
