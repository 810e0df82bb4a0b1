package io.taskq.core.internal.config;

import org.jspecify.annotations.Nullable;

/**
 * What a knob's value must satisfy on its own; rules between knobs are {@link CrossRule}s.
 *
 * @param <T> the knob's value type
 */
public interface Rule<T> {
  /** Why {@code value} breaks the rule ("is out of range", "must not be negative"), or null. */
  @Nullable String problem(T value);

  /** The allowed values, shown in error messages and the documentation: {@code 1..10000}. */
  String describe();
}
