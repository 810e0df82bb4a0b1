package io.taskq;

import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import java.util.List;
import java.util.Locale;

/**
 * One TaskQ setting as the knob catalog defines it, for integrations that expose the settings under
 * their own names (the Spring Boot starter's {@code taskq.claim-batch-size}) and for documentation
 * generators. Values given under such names go back through {@link
 * TaskQConfig.Builder#setProperty}, so every source is checked by the same rules.
 *
 * @param envName the environment variable, e.g. {@code TASKQ_CLAIM_BATCH_SIZE}
 * @param accessor the {@link TaskQConfig} accessor and builder setter, e.g. {@code claimBatchSize}
 * @param javaType the accessor's type as the documentation names it: {@code int}, {@code Duration},
 *     {@code List<String>}, {@code Optional<String>}
 * @param bareUnit the unit a bare number counts in ({@code ms}, {@code s}, {@code bytes}), or empty
 * @param defaultText the default as an operator would type it ({@code unset} for an optional
 *     setting without one)
 * @param allowed the allowed values, as error messages state them
 * @param secret whether the value is a secret that is never shown
 */
public record TaskQSetting(
    String envName,
    String accessor,
    String javaType,
    String bareUnit,
    String defaultText,
    String allowed,
    boolean secret) {

  static final List<TaskQSetting> ALL = KnobCatalog.all().stream().map(TaskQSetting::of).toList();

  private static TaskQSetting of(Knob<?> knob) {
    return new TaskQSetting(
        knob.envName(),
        knob.accessor(),
        knob.type().javaType(),
        knob.type().bareUnit(),
        knob.defaultText(),
        knob.rule().describe(),
        knob.exposure() == Knob.Exposure.SECRET);
  }

  /** {@return whether the value is a comma-separated list (a framework may bind it as a list)} */
  public boolean isList() {
    return javaType.startsWith("List");
  }

  /**
   * {@return the accessor in kebab case, the form Spring Boot documents: {@code claimBatchSize}
   * gives {@code claim-batch-size}}
   */
  public String kebabName() {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < accessor.length(); i++) {
      char c = accessor.charAt(i);
      if (Character.isUpperCase(c)) {
        out.append('-').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }
}
