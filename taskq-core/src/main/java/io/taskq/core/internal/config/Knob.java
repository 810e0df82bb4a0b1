package io.taskq.core.internal.config;

import org.jspecify.annotations.Nullable;

/**
 * One configuration setting: its {@code TASKQ_*} name, the {@link io.taskq.TaskQConfig} accessor
 * that returns it, how it is parsed, its default and the rule its value must satisfy. Instances
 * exist only in {@link KnobCatalog}; everything else (builder, environment reader, validation,
 * {@code toString}, the documentation test) reads them from there.
 *
 * @param <T> the accessor's return type (boxed)
 */
public final class Knob<T> {
  /** How a value may be shown in messages and {@code toString}. */
  public enum Exposure {
    /** Shown as is. */
    PLAIN,
    /** A URL that may carry a password: shown through {@link CredentialMask}. */
    URL,
    /** Never shown: only whether it is set. */
    SECRET
  }

  private final int index;
  private final String envName;
  private final String accessor;
  private final ValueType<T> type;
  private final T defaultValue;
  private final Rule<T> rule;
  private final Exposure exposure;

  Knob(
      int index,
      String envName,
      String accessor,
      ValueType<T> type,
      T defaultValue,
      Rule<T> rule,
      Exposure exposure) {
    this.index = index;
    this.envName = envName;
    this.accessor = accessor;
    this.type = type;
    this.defaultValue = defaultValue;
    this.rule = rule;
    this.exposure = exposure;
  }

  /** The position in {@link KnobCatalog#all()}. */
  public int index() {
    return index;
  }

  /** The environment variable, e.g. {@code TASKQ_SWEEP_INTERVAL}. */
  public String envName() {
    return envName;
  }

  /** The accessor on {@code TaskQConfig} and setter on its builder, e.g. {@code sweepInterval}. */
  public String accessor() {
    return accessor;
  }

  public ValueType<T> type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public Rule<T> rule() {
    return rule;
  }

  public Exposure exposure() {
    return exposure;
  }

  /** The default as the documentation shows it. */
  public String defaultText() {
    return show(defaultValue);
  }

  /** Why {@code value} breaks this knob's own rule, or null. */
  public @Nullable String problem(Object value) {
    return rule.problem(cast(value));
  }

  /** {@code value} as it may be shown: URLs masked, secrets hidden, unset optionals as "unset". */
  public String show(Object value) {
    String text = type.format(cast(value));
    if (text.isEmpty() && type.emptyMeansUnset()) {
      return "unset";
    }
    return showText(text);
  }

  /** Text an operator gave for this knob, as it may be shown in an error message. */
  public String showText(String text) {
    return switch (exposure) {
      case PLAIN -> printable(text);
      case URL -> printable(CredentialMask.mask(text));
      case SECRET -> CredentialMask.MASK;
    };
  }

  /** The one unchecked cast: values are stored by knob, and only a {@code Knob<T>} stores a T. */
  @SuppressWarnings("unchecked")
  public T cast(Object value) {
    return (T) value;
  }

  private static String printable(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .limit(200)
        .forEach(
            c -> {
              if (Character.isISOControl(c)) {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04x", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return text.codePointCount(0, text.length()) > 200 ? out + "..." : out.toString();
  }

  @Override
  public String toString() {
    return envName;
  }
}
