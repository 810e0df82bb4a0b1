package io.taskq.progress;

/** A live progress subscription; closing it stops the notifications. Closing twice is harmless. */
@FunctionalInterface
public interface ProgressSubscription extends AutoCloseable {
  @Override
  void close();
}
