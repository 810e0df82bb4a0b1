package io.taskq.cli;

import io.taskq.operations.Pause;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code taskq queues}: list, pause and resume queues. */
@Command(
    name = "queues",
    mixinStandardHelpOptions = true,
    description = "List, pause and resume queues.",
    subcommands = {QueuesListCommand.class, QueuesPauseCommand.class, QueuesResumeCommand.class})
final class QueuesCommand extends Group {
  static Map<String, Object> pauseJson(Pause p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", p.target().kind().dbValue());
    m.put("name", p.target().name());
    m.put("paused_at", p.pausedAt());
    m.put("paused_by", p.pausedBy());
    m.put("reason", p.reason());
    return m;
  }
}
