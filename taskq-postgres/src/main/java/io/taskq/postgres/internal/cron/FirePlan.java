package io.taskq.postgres.internal.cron;

import io.taskq.JobRequest;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What planning one due schedule gave: a job to enqueue, or a failure stored on the schedule. */
sealed interface FirePlan {
  /** The schedule's name. */
  String name();

  /** The schedule fires {@code request} and moves on to {@code next}. */
  record Fired(String name, Instant next, JobRequest request) implements FirePlan {}

  /** The schedule failed to fire ({@code error}, sanitised); {@code next} null: none known. */
  record Failed(String name, @Nullable Instant next, String error) implements FirePlan {}

  /** One tick's plans, fired and failed apart, each in the order the schedules were selected. */
  record Tick(List<Fired> fired, List<Failed> failed) {}
}
