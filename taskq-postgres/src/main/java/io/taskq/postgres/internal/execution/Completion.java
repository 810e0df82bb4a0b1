package io.taskq.postgres.internal.execution;

/** A finished attempt waiting to be recorded: the job and what its handler did. */
public record Completion(RunningJob job, Outcome outcome) {}
