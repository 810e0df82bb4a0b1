package io.taskq.spring.boot;

import io.taskq.Actor;
import io.taskq.TaskQ;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts and stops the {@link TaskQ} bean with the application context (SB1, SB6).
 *
 * <p><b>Start</b>, once every singleton exists: registers every {@link Actor} bean (SB3; two of one
 * name fail start-up, naming both beans) and starts the engine: schema migration, workers,
 * maintenance leadership. Without any {@code Actor} bean the engine is not started: the application
 * only enqueues (the schema must then be migrated by another process or tool).
 *
 * <p><b>Stop</b>, in Spring's shutdown phase {@value #PHASE}: below the web server's graceful
 * shutdown phase, so in-flight requests may still enqueue while they drain, and above the phase in
 * which the pool closes. The engine stops claiming, waits up to {@code taskq.shutdown-grace} for
 * running handlers, hands the rest back to the queue and deregisters, on a thread of its own;
 * Spring waits for it up to {@code spring.lifecycle.timeout-per-shutdown-phase}, which should be
 * longer than the grace (the engine bean's own close still waits for it before the pool closes).
 */
public final class TaskQLifecycle implements SmartLifecycle {
  /**
   * The phase: {@code SmartLifecycle.DEFAULT_PHASE - 4096}, below the web server's graceful
   * shutdown ({@code DEFAULT_PHASE - 1024}) and its stop ({@code DEFAULT_PHASE - 2048}).
   */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

  private static final Logger LOG = LoggerFactory.getLogger(TaskQLifecycle.class);

  /** Where the engine is in its life, as the health contributor reports it. */
  public enum State {
    /** Not started yet. */
    NEW,
    /** Started with workers. */
    RUNNING,
    /** Started without actors: enqueue only. */
    PRODUCER_ONLY,
    /** Shutting down: no new claims, running handlers finishing. */
    STOPPING,
    /** Stopped. */
    STOPPED
  }

  private final TaskQ taskq;
  private final ListableBeanFactory beans;
  private volatile State state = State.NEW;

  /**
   * A lifecycle for {@code taskq}, registering the {@link Actor} beans of {@code beans}.
   *
   * @param taskq the engine to start and stop
   * @param beans the factory whose {@link Actor} beans are registered before the start
   */
  public TaskQLifecycle(TaskQ taskq, ListableBeanFactory beans) {
    this.taskq = taskq;
    this.beans = beans;
  }

  @Override
  public synchronized void start() {
    if (state != State.NEW) {
      return;
    }
    if (taskq.isRunning()) {
      state = State.RUNNING;
      return;
    }
    Map<String, Actor<?>> actors = actorBeans();
    if (actors.isEmpty()) {
      LOG.info("TaskQ: no Actor bean, so no workers; this application enqueues only");
      state = State.PRODUCER_ONLY;
      return;
    }
    register(actors);
    try {
      taskq.start();
    } catch (SQLException e) {
      throw new IllegalStateException("TaskQ could not start: " + e.getMessage(), e);
    }
    state = State.RUNNING;
  }

  private Map<String, Actor<?>> actorBeans() {
    Map<String, Actor<?>> out = new LinkedHashMap<>();
    for (String name : beans.getBeanNamesForType(Actor.class)) {
      Actor<?> actor = beans.getBean(name, Actor.class);
      out.put(name, actor);
    }
    return out;
  }

  /** Registers every actor bean; two of one actor name fail, naming both beans. */
  private void register(Map<String, Actor<?>> actors) {
    Map<String, String> beanOfActor = new LinkedHashMap<>();
    actors.forEach(
        (bean, actor) -> {
          String first = beanOfActor.putIfAbsent(actor.name(), bean);
          if (first != null) {
            throw new IllegalStateException(
                "the Actor beans '"
                    + first
                    + "' and '"
                    + bean
                    + "' are both named '"
                    + actor.name()
                    + "'; actor names must be unique");
          }
          taskq.register(actor);
        });
  }

  /** Stops on a thread of its own, so Spring can bound the wait; see the class comment. */
  @Override
  public void stop(Runnable callback) {
    if (!beginStop()) {
      callback.run();
      return;
    }
    Thread stopping =
        new Thread(
            () -> {
              try {
                closeEngine();
              } finally {
                callback.run();
              }
            },
            "taskq-shutdown");
    stopping.start();
  }

  @Override
  public void stop() {
    if (beginStop()) {
      closeEngine();
    }
  }

  private synchronized boolean beginStop() {
    if (state == State.NEW || state == State.STOPPING || state == State.STOPPED) {
      return false;
    }
    state = State.STOPPING;
    return true;
  }

  private void closeEngine() {
    try {
      taskq.close();
    } finally {
      state = State.STOPPED;
    }
  }

  @Override
  public boolean isRunning() {
    State now = state;
    return now == State.RUNNING || now == State.PRODUCER_ONLY;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  /** {@return where the engine is in its life} */
  public State state() {
    return state;
  }
}
