package io.taskq.core.internal.config;

import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * A complete, validated set of knob values and where each came from: the state behind an immutable
 * {@code TaskQConfig}. Only {@link SettingsDraft#resolve()} creates one, after every rule held.
 */
public final class ResolvedKnobs {
  private final Object[] values;
  private final Source[] sources;

  ResolvedKnobs(Object[] values, Source[] sources) {
    this.values = values.clone();
    this.sources = sources.clone();
  }

  /** The knob's value. */
  public <T> T get(Knob<T> knob) {
    return knob.cast(values[knob.index()]);
  }

  /** Where the knob's value came from. */
  public Source source(Knob<?> knob) {
    return sources[knob.index()];
  }

  /** {@code accessor=value, ...} with URLs masked and secrets hidden. */
  public String showValues() {
    StringJoiner out = new StringJoiner(", ");
    for (Knob<?> knob : KnobCatalog.all()) {
      out.add(knob.accessor() + "=" + knob.show(values[knob.index()]));
    }
    return out.toString();
  }

  /** One line per knob, {@code TASKQ_NAME=value (source)}, safe to log. */
  public List<String> describe() {
    return KnobCatalog.all().stream()
        .map(
            knob ->
                knob.envName()
                    + "="
                    + knob.show(values[knob.index()])
                    + " ("
                    + source(knob).describe(knob)
                    + ")")
        .toList();
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof ResolvedKnobs that && Arrays.equals(values, that.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return showValues();
  }
}
