package io.taskq;

import io.taskq.cron.ScheduledFire;

/**
 * Builds the JSON payload of a cron schedule's job at fire time, e.g. "the report for yesterday"
 * (S12). Registered in code under a name with {@link TaskQ#registerPayloadFactory(String,
 * PayloadFactory)}; a schedule names it instead of storing a fixed payload.
 *
 * <p>Runs on the cron loop's thread inside the tick's transaction, so keep it quick: the whole tick
 * shares one {@code TASKQ_DISPATCHER_COMMAND_TIMEOUT} deadline. An exception fails only this
 * schedule's fire (F5): its {@code consecutive_failures} goes up, the exception's class and message
 * are stored as {@code last_fire_error}, and the other schedules of the tick still fire. Every
 * process that runs a cron loop must register the same factories (like actors): any of them may run
 * the tick.
 */
@FunctionalInterface
public interface PayloadFactory {
  /**
   * {@return the payload of {@code fire}'s job: one JSON value, without NUL}
   *
   * @param fire the schedule's fire
   * @throws Exception to fail this fire (the schedule's failure count goes up)
   */
  String payloadJson(ScheduledFire fire) throws Exception;
}
