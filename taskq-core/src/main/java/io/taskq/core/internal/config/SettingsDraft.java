package io.taskq.core.internal.config;

import io.taskq.core.TaskQConfigException;
import io.taskq.core.TaskQConfigException.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The mutable state behind {@code TaskQConfig.Builder}: what was set, as text or as a value, and
 * from where. It collects and never throws while settings arrive; {@link #resolve()} checks
 * everything at once, so a bad environment and a bad setter call show up in one message (D6).
 *
 * <p>Precedence (D6): a setting made in code replaces the environment's, which replaces the
 * default. An environment value that code replaced is never parsed, so code can repair a broken
 * environment.
 */
public final class SettingsDraft {
  private static final String PREFIX = "TASKQ_";

  private record Entry(Source source, Object value, boolean isText) {}

  private final Map<Knob<?>, Entry> entries = new HashMap<>();
  private final List<Problem> unknownVariables = new ArrayList<>();

  /** A draft with nothing set: every knob at its default. */
  public SettingsDraft() {}

  /** A draft holding {@code resolved}'s values, each keeping the source it came from. */
  public static SettingsDraft of(ResolvedKnobs resolved) {
    SettingsDraft draft = new SettingsDraft();
    for (Knob<?> knob : KnobCatalog.all()) {
      Source source = resolved.source(knob);
      if (source != Source.DEFAULT) {
        draft.entries.put(knob, new Entry(source, resolved.get(knob), false));
      }
    }
    return draft;
  }

  /**
   * Reads every {@code TASKQ_*} variable of {@code env}. Empty values of optional knobs mean unset.
   * A name that is no knob (compared exactly; a lower-case {@code taskq_} name counts as a typo) is
   * a problem with a "did you mean" hint, unless it starts with a {@link
   * KnobCatalog#FOREIGN_PREFIXES foreign prefix}. Values of unknown names are never shown: one may
   * be a misspelt password.
   */
  public void readEnvironment(Map<String, String> env) {
    for (Map.Entry<String, String> variable : new TreeMap<>(env).entrySet()) {
      String name = variable.getKey();
      if (!name.toUpperCase(Locale.ROOT).startsWith(PREFIX) || isForeign(name)) {
        continue;
      }
      Knob<?> knob = KnobCatalog.byEnvName(name);
      if (knob == null) {
        unknownVariables.add(unknown(name));
      } else if (!(variable.getValue().isEmpty() && knob.type().emptyMeansUnset())) {
        entries.put(knob, new Entry(Source.ENVIRONMENT, variable.getValue(), true));
      }
    }
  }

  /** Sets {@code knob} from code; checked by {@link #resolve()}. */
  public <T> void set(Knob<T> knob, T value) {
    entries.put(knob, new Entry(Source.CODE, value, false));
  }

  /** Sets {@code knob} from code as text, parsed and checked by {@link #resolve()}. */
  public void setText(Knob<?> knob, String text) {
    entries.put(knob, new Entry(Source.CODE, text, true));
  }

  /**
   * Checks every setting, then every rule between settings whose values are both good.
   *
   * @throws TaskQConfigException listing every problem
   */
  public ResolvedKnobs resolve() {
    List<Knob<?>> knobs = KnobCatalog.all();
    Object[] values = new Object[knobs.size()];
    Source[] sources = new Source[knobs.size()];
    boolean[] good = new boolean[knobs.size()];
    List<Problem> problems = new ArrayList<>();
    for (Knob<?> knob : knobs) {
      Entry entry =
          entries.getOrDefault(knob, new Entry(Source.DEFAULT, knob.defaultValue(), false));
      sources[knob.index()] = entry.source();
      Optional<Object> value = check(knob, entry, problems);
      value.ifPresent(v -> values[knob.index()] = v);
      good[knob.index()] = value.isPresent();
    }
    for (CrossRule rule : KnobCatalog.crossRules()) {
      if (good[rule.shorter().index()] && good[rule.longer().index()]) {
        checkCrossRule(rule, values, sources, problems);
      }
    }
    problems.addAll(unknownVariables);
    if (!problems.isEmpty()) {
      throw new TaskQConfigException(problems);
    }
    return new ResolvedKnobs(values, sources);
  }

  private static Optional<Object> check(Knob<?> knob, Entry entry, List<Problem> problems) {
    Object value = entry.value();
    String shown;
    if (entry.isText()) {
      String text = (String) value;
      shown = knob.showText(text);
      try {
        value = knob.type().parse(text);
      } catch (BadValueException e) {
        problems.add(knobProblem(knob, shown, entry.source(), e.problem()));
        return Optional.empty();
      }
    } else {
      shown = knob.show(value);
    }
    String problem = knob.problem(value);
    if (problem != null) {
      problems.add(knobProblem(knob, shown, entry.source(), problem));
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private static Problem knobProblem(Knob<?> knob, String shown, Source source, String problem) {
    return new Problem(
        List.of(knob.envName()),
        knob.envName()
            + "='"
            + shown
            + "' ("
            + source.describe(knob)
            + ") "
            + problem
            + "; allowed: "
            + knob.rule().describe());
  }

  private static void checkCrossRule(
      CrossRule rule, Object[] values, Source[] sources, List<Problem> problems) {
    Knob<Duration> shorter = rule.shorter();
    Knob<Duration> longer = rule.longer();
    Duration shortValue = shorter.cast(values[shorter.index()]);
    Duration longValue = longer.cast(values[longer.index()]);
    if (rule.holds(shortValue, longValue)) {
      return;
    }
    problems.add(
        new Problem(
            List.of(shorter.envName(), longer.envName()),
            shorter.envName()
                + "='"
                + shorter.show(shortValue)
                + "' ("
                + sources[shorter.index()].describe(shorter)
                + ") must be below "
                + longer.envName()
                + "='"
                + longer.show(longValue)
                + "' ("
                + sources[longer.index()].describe(longer)
                + "): "
                + rule.why()
                + "; allowed: less than "
                + longer.show(longValue)));
  }

  private static boolean isForeign(String name) {
    return KnobCatalog.FOREIGN_PREFIXES.stream().anyMatch(name::startsWith);
  }

  private static Problem unknown(String name) {
    List<String> known = KnobCatalog.all().stream().map(Knob::envName).toList();
    String hint =
        NearestName.among(name, known)
            .map(match -> "did you mean " + match + "?")
            .orElse("the known variables are listed in docs/configuration.md");
    return new Problem(
        List.of(name),
        name
            + " (from the environment) is not a TaskQ variable; "
            + hint
            + " (variables starting with "
            + String.join(", ", KnobCatalog.FOREIGN_PREFIXES)
            + " are ignored)");
  }
}
