package io.taskq.core.internal.config;

/** Where a setting's value came from; error messages and {@code describe()} name it. */
public enum Source {
  /** The knob's documented default: nothing set it. */
  DEFAULT,
  /** A {@code TASKQ_*} environment variable. */
  ENVIRONMENT,
  /**
   * A framework's property naming the knob its own way (a Spring Boot {@code taskq.*} property): it
   * wins over the environment, and a different {@code TASKQ_*} value for the same knob is an error
   * rather than silently replaced.
   */
  PROPERTY,
  /** A builder setter: code wins over the environment (D6). */
  CODE;

  /** How a message names this source for {@code knob}. */
  public String describe(Knob<?> knob) {
    return switch (this) {
      case DEFAULT -> "default";
      case ENVIRONMENT -> "from the environment";
      case PROPERTY -> "from a property";
      case CODE -> "set in code via " + knob.accessor() + "()";
    };
  }
}
