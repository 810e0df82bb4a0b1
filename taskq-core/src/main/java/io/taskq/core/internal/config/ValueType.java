package io.taskq.core.internal.config;

/**
 * How one kind of knob value is read from text and written back: the parser half of a knob. Range
 * and shape checks live in {@link Rule}, so values set in code are checked exactly like values read
 * from the environment.
 *
 * @param <T> the Java type the knob's accessor returns
 */
public interface ValueType<T> {
  /**
   * Reads {@code text} (an environment value, or text given to a builder setter).
   *
   * @throws BadValueException saying what is wrong with the text, without repeating it
   */
  T parse(String text) throws BadValueException;

  /** The value as an operator would type it; {@code parse(format(v))} gives {@code v} back. */
  String format(T value);

  /** The Java type as the documentation names it: {@code int}, {@code Duration}. */
  String javaType();

  /** The unit a bare number counts in ({@code ms}, {@code s}, {@code bytes}), or empty. */
  String bareUnit();

  /**
   * Whether an empty environment value means "not set" (optional knobs) rather than a bad value.
   */
  default boolean emptyMeansUnset() {
    return false;
  }
}
