package com.example;

import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.TaskQ;
import java.util.concurrent.CountDownLatch;

public class QuickStart {
  public static void main(String[] args) throws Exception {
    CountDownLatch sent = new CountDownLatch(1);
    // Settings from TASKQ_* variables: TASKQ_DATABASE_URL=jdbc:postgresql://localhost/app?user=app
    try (TaskQ taskq = TaskQ.builder().build()) {
      taskq.register(Actor.rawJson("send-email", (json, ctx) -> {
        System.out.println("sending " + json + " (job " + ctx.jobId() + ")");
        sent.countDown();
        return null; // no result to keep
      }));
      taskq.start(); // migrates the schema (taskq by default) and starts the worker
      taskq.jobs().enqueue(JobRequest.of("send-email", "{\"to\": \"ada@example.com\"}"));
      sent.await();
    } // close(): graceful shutdown
  }
}
