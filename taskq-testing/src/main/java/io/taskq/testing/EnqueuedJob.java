package io.taskq.testing;

import io.taskq.JobStatus;
import org.jspecify.annotations.Nullable;

/**
 * One job as {@link TestJobs} read it from the schema's {@code jobs} table.
 *
 * @param id the job's id
 * @param actor the actor's name
 * @param queue the queue's name
 * @param status the job's status when it was read
 * @param payloadJson the payload in PostgreSQL's {@code jsonb} rewrite of what was enqueued
 * @param attempt the attempts started so far
 * @param resultJson the stored result, if any
 * @param errorClass the last failed attempt's error class, if any
 * @param errorMessage the last failed attempt's message, if any
 */
public record EnqueuedJob(
    long id,
    String actor,
    String queue,
    JobStatus status,
    String payloadJson,
    int attempt,
    @Nullable String resultJson,
    @Nullable String errorClass,
    @Nullable String errorMessage) {

  /** One line for failure messages: {@code #12 send-email@mail pending {"to": "ada"}}. */
  String describe() {
    String payload =
        payloadJson.length() > 120 ? payloadJson.substring(0, 120) + "..." : payloadJson;
    return "#" + id + " " + actor + "@" + queue + " " + status.dbValue() + " " + payload;
  }
}
