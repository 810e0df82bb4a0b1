package io.taskq.cli;

import java.lang.reflect.Constructor;
import picocli.CommandLine;

/** Builds picocli's commands, handing each leaf command the run's session. */
final class CommandFactory implements CommandLine.IFactory {
  private final Session session;

  CommandFactory(Session session) {
    this.session = session;
  }

  @Override
  public <K> K create(Class<K> cls) throws Exception {
    if (BaseCommand.class.isAssignableFrom(cls)) {
      Constructor<K> c = cls.getDeclaredConstructor(Session.class);
      c.setAccessible(true);
      return c.newInstance(session);
    }
    return CommandLine.defaultFactory().create(cls);
  }
}
