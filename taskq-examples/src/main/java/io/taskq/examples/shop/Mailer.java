package io.taskq.examples.shop;

/** Sends e-mail; the application's own collaborator, replaced by a fake in tests. */
@FunctionalInterface
public interface Mailer {
  /**
   * Sends one message.
   *
   * @throws Exception when the mail server refuses it for now (the job retries)
   */
  void send(String to, String text) throws Exception;
}
