package io.taskq.examples.shop;

/**
 * The payload of a {@code send-confirmation} job.
 *
 * @param orderId the order to confirm
 * @param email where to send the confirmation
 */
public record ConfirmationRequested(long orderId, String email) {}
