package io.taskq.examples.shop;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.JobsClient;
import io.taskq.RetryPolicy;
import io.taskq.jackson.JacksonCodec;
import java.time.Duration;
import java.util.Objects;

/**
 * Places orders; each placed order gets a confirmation e-mail, sent by a job so that a slow or
 * failing mail server never fails the order.
 */
public final class OrderService {
  /** The actor that sends confirmations. */
  public static final String SEND_CONFIRMATION = "send-confirmation";

  private final JobsClient jobs;
  private final JacksonCodec<ConfirmationRequested> confirmations;

  /** A service enqueueing through {@code jobs}, writing payloads with {@code mapper}. */
  public OrderService(JobsClient jobs, ObjectMapper mapper) {
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    this.confirmations = JacksonCodec.of(mapper, ConfirmationRequested.class);
  }

  /**
   * The actor that sends the confirmations through {@code mailer}: five attempts, a second apart
   * and doubling.
   */
  public static Actor<ConfirmationRequested> confirmationSender(
      ObjectMapper mapper, Mailer mailer) {
    return Actor.builder(
            SEND_CONFIRMATION,
            JacksonCodec.of(mapper, ConfirmationRequested.class),
            (request, ctx) -> {
              mailer.send(request.email(), "Your order " + request.orderId() + " is confirmed.");
              return null;
            })
        .queue("mail")
        .retryPolicy(
            RetryPolicy.of(
                RetryPolicy.Backoff.EXPONENTIAL,
                Duration.ofSeconds(1),
                Duration.ofMinutes(5),
                0,
                5))
        .build();
  }

  /**
   * Places an order: enqueues its confirmation.
   *
   * @return the confirmation job's id
   */
  public long place(long orderId, String email) {
    ConfirmationRequested request = new ConfirmationRequested(orderId, email);
    return jobs.enqueue(
        JobRequest.builder(SEND_CONFIRMATION)
            .queue("mail")
            .payloadJson(confirmations.toJson(request))
            .build());
  }
}
