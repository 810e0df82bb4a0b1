package io.taskq.examples.shop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A fake mail server: records what it sent, and refuses the first {@code refusals} messages. */
final class RecordingMailer implements Mailer {
  private final List<String> sent = new CopyOnWriteArrayList<>();
  private final List<String> threads = new CopyOnWriteArrayList<>();
  private final AtomicInteger refusals;

  RecordingMailer(int refusals) {
    this.refusals = new AtomicInteger(refusals);
  }

  @Override
  public void send(String to, String text) throws Exception {
    threads.add(Thread.currentThread().getName());
    if (refusals.getAndDecrement() > 0) {
      throw new java.io.IOException("421 mail server busy, try again later");
    }
    sent.add(to + ": " + text);
  }

  List<String> sent() {
    return sent;
  }

  List<String> threads() {
    return threads;
  }
}
