package io.taskq.cli;

import io.taskq.operations.PauseTarget;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Pause and resume, shared by {@code queues} and {@code actors}. */
final class Pausing {
  private Pausing() {}

  static int pause(
      BaseCommand command, PauseTarget target, @Nullable String by, @Nullable String reason) {
    String who = Operator.of(by);
    boolean changed = command.ops().pause(target, who, reason);
    report(command, target, "paused", who, changed, changed ? "paused" : "was already paused");
    return ExitCodes.OK;
  }

  static int resume(BaseCommand command, PauseTarget target, @Nullable String by) {
    String who = Operator.of(by);
    boolean changed = command.ops().resume(target, who);
    report(command, target, "resumed", who, changed, changed ? "resumed" : "was not paused");
    return ExitCodes.OK;
  }

  private static void report(
      BaseCommand command,
      PauseTarget target,
      String action,
      @Nullable String by,
      boolean changed,
      String text) {
    if (command.json()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", target.kind().dbValue());
      m.put("name", target.name());
      m.put(action, true);
      m.put("by", by);
      m.put("changed", changed);
      command.printJson(m);
    } else {
      command.session.out.println(target + " " + text);
    }
  }
}
