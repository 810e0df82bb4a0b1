package io.taskq.acceptance;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Every log event of TaskQ's loggers while open, with its level, logger and formatted message. */
final class CapturedLogs implements AutoCloseable {
  private final Logger taskq = (Logger) LoggerFactory.getLogger("io.taskq");
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  CapturedLogs() {
    appender.setContext(taskq.getLoggerContext());
    appender.start();
    taskq.addAppender(appender);
  }

  /** The events so far (a copy). */
  List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }

  /** The events so far of the logger named {@code loggerName} (a class's full name). */
  List<ILoggingEvent> of(String loggerName) {
    return events().stream().filter(e -> e.getLoggerName().equals(loggerName)).toList();
  }

  /** The events so far at exactly {@code level}. */
  List<ILoggingEvent> at(Level level) {
    return events().stream().filter(e -> e.getLevel() == level).toList();
  }

  /** Forgets the events so far. */
  void clear() {
    synchronized (appender) {
      appender.list.clear();
    }
  }

  @Override
  public void close() {
    taskq.detachAppender(appender);
    appender.stop();
  }
}
