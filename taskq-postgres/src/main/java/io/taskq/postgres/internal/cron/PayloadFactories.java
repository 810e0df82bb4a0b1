package io.taskq.postgres.internal.cron;

import io.taskq.PayloadFactory;
import io.taskq.postgres.internal.CallerText;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** The payload factories registered in this process, by name (S12). Thread-safe. */
public final class PayloadFactories {
  private final Map<String, PayloadFactory> byName = new ConcurrentHashMap<>();

  /**
   * Registers {@code factory} under {@code name}.
   *
   * @throws IllegalArgumentException when the name is empty, too long, contains NUL, or is taken
   */
  public void register(String name, PayloadFactory factory) {
    CallerText.requireName("payload factory name", Objects.requireNonNull(name, "name"), 128);
    Objects.requireNonNull(factory, "factory");
    if (byName.putIfAbsent(name, factory) != null) {
      throw new IllegalArgumentException(
          "a payload factory named '" + name + "' is already registered");
    }
  }

  /** The factory registered under {@code name}, or null. */
  public @Nullable PayloadFactory get(String name) {
    return byName.get(name);
  }

  /** The registered names, sorted. */
  public Set<String> names() {
    return new TreeSet<>(byName.keySet());
  }
}
