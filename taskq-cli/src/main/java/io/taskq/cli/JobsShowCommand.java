package io.taskq.cli;

import io.taskq.JobInfo;
import io.taskq.operations.AttemptRecord;
import io.taskq.operations.EventRecord;
import io.taskq.operations.JobDetail;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code taskq jobs show ID}: one job's full story. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "One job's full story: its row, every attempt, its events and its progress.")
final class JobsShowCommand extends BaseCommand {
  @Parameters(paramLabel = "ID", description = "The job id.")
  long id;

  @Option(names = "--stack", description = "Print each failed attempt's stack trace.")
  boolean stack;

  JobsShowCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    Optional<JobDetail> found = ops().detail(id);
    if (found.isEmpty()) {
      throw new CliException(
          ExitCodes.NOT_FOUND, "no job " + id + " in schema " + taskq().schema().value());
    }
    JobDetail d = found.get();
    if (json()) {
      printJson(json(d));
      return ExitCodes.OK;
    }
    JobInfo j = d.job();
    session.out.printf(
        Locale.ROOT,
        "job %d  %s  actor %s  queue %s  attempt %d/%d  snoozes %d%s%n",
        j.id(),
        j.status().dbValue(),
        j.actor(),
        j.queue(),
        j.attempt(),
        j.maxAttempts(),
        j.snoozes(),
        j.archived() ? "  (archived)" : "");
    session.out.println("created  " + j.createdAt() + "   run at " + j.runAt());
    session.out.println("payload  " + j.payloadJson());
    if (j.errorClass() != null) {
      session.out.println("error    " + j.errorClass() + ": " + j.errorMessage());
    }
    d.progress()
        .ifPresent(
            p ->
                session.out.printf(
                    Locale.ROOT, "progress %.0f%% %s%n", p.fraction() * 100, p.message()));
    Table attempts = new Table("ATTEMPT", "OUTCOME", "WORKER", "STARTED", "FINISHED", "ERROR");
    for (AttemptRecord a : d.attempts()) {
      attempts.row(
          a.attempt(),
          a.outcome(),
          a.workerId(),
          a.startedAt(),
          a.finishedAt(),
          a.errorClass() == null ? "" : a.errorClass() + ": " + a.errorMessage());
    }
    attempts.print(session.out);
    if (stack) {
      d.attempts().stream()
          .filter(a -> a.errorStack() != null)
          .forEach(a -> session.out.println("attempt " + a.attempt() + ":\n" + a.errorStack()));
    }
    Table events = new Table("EVENT", "ATTEMPT", "DISPOSITION", "AT", "NOTE");
    for (EventRecord e : d.events()) {
      events.row(e.kind(), e.attempt(), e.disposition(), e.occurredAt(), e.note());
    }
    events.print(session.out);
    return ExitCodes.OK;
  }

  private static Map<String, Object> json(JobDetail d) {
    JobInfo j = d.job();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", j.id());
    m.put("actor", j.actor());
    m.put("queue", j.queue());
    m.put("status", j.status().dbValue());
    m.put("attempt", j.attempt());
    m.put("max_attempts", j.maxAttempts());
    m.put("snoozes", j.snoozes());
    m.put("payload", j.payloadJson());
    m.put("labels", j.labels());
    m.put("result", j.resultJson());
    m.put("error_class", j.errorClass());
    m.put("error_message", j.errorMessage());
    m.put("created_at", j.createdAt());
    m.put("run_at", j.runAt());
    m.put("started_at", j.startedAt());
    m.put("finished_at", j.finishedAt());
    m.put("archived", j.archived());
    m.put("attempts", d.attempts().stream().map(JobsShowCommand::attempt).toList());
    m.put("events", d.events().stream().map(JobsShowCommand::event).toList());
    m.put(
        "progress",
        d.progress()
            .map(
                p -> {
                  Map<String, Object> pm = new LinkedHashMap<>();
                  pm.put("fraction", p.fraction());
                  pm.put("message", p.message());
                  pm.put("reported_at", p.reportedAt());
                  return pm;
                })
            .orElse(null));
    return m;
  }

  private static Map<String, Object> attempt(AttemptRecord a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("attempt", a.attempt());
    m.put("outcome", a.outcome());
    m.put("worker_id", a.workerId());
    m.put("error_class", a.errorClass());
    m.put("error_message", a.errorMessage());
    m.put("error_stack", a.errorStack());
    m.put("started_at", a.startedAt());
    m.put("finished_at", a.finishedAt());
    return m;
  }

  private static Map<String, Object> event(EventRecord e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", e.kind());
    m.put("attempt", e.attempt());
    m.put("disposition", e.disposition());
    m.put("error_class", e.errorClass());
    m.put("note", e.note());
    m.put("occurred_at", e.occurredAt());
    return m;
  }
}
