package io.taskq.postgres.internal.worker;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names the worker's threads {@code taskq-<role>-<worker id>[-n]} so a thread dump tells whose they
 * are. They are daemon threads: {@code close()} is the orderly way out, and a forgotten worker must
 * not keep the JVM alive. An uncaught exception is logged, never silent.
 */
final class WorkerThreads implements ThreadFactory {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerThreads.class);

  private final String prefix;
  private final boolean numbered;
  private final AtomicInteger count = new AtomicInteger();

  private WorkerThreads(String prefix, boolean numbered) {
    this.prefix = prefix;
    this.numbered = numbered;
  }

  /** Threads for one role, numbered when the role has several. */
  static WorkerThreads of(String role, String workerId, boolean numbered) {
    return new WorkerThreads("taskq-" + role + "-" + workerId, numbered);
  }

  @Override
  public Thread newThread(Runnable task) {
    String name = numbered ? prefix + "-" + count.incrementAndGet() : prefix;
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.setUncaughtExceptionHandler(
        (t, e) -> LOG.error("uncaught exception in {}", t.getName(), e));
    return thread;
  }
}
