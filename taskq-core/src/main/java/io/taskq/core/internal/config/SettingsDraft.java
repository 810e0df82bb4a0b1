package io.taskq.core.internal.config;

import io.taskq.TaskQConfigException;
import io.taskq.TaskQConfigException.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

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

  /**
   * One setting. {@code name} and {@code origin} are set for a {@link Source#PROPERTY}: the name
   * the user wrote (e.g. {@code taskq.claim-batch-size}) and where ({@code application.yml}, line
   * 3), which its error messages show instead of the variable.
   */
  private record Entry(
      Source source, Object value, boolean isText, @Nullable String name, @Nullable String origin) {
    Entry(Source source, Object value, boolean isText) {
      this(source, value, isText, null, null);
    }

    String shownName(Knob<?> knob) {
      return name != null ? name : knob.envName();
    }

    String describeSource(Knob<?> knob) {
      return origin != null ? "from " + origin : source.describe(knob);
    }
  }

  private final Map<Knob<?>, Entry> entries = new HashMap<>();
  private final List<Problem> unknownVariables = new ArrayList<>();
  private final List<Problem> conflicts = new ArrayList<>();

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
    conflicts.removeIf(p -> p.variables().contains(knob.envName()));
    entries.put(knob, new Entry(Source.CODE, value, false));
  }

  /**
   * Sets {@code knob} as text from a property called {@code name}, found at {@code origin}; it
   * replaces the environment's value, and when the environment gave the same knob a different text
   * that is a problem of its own (set both ways, the operator's intent is unclear). Error messages
   * name {@code name} and {@code origin}.
   */
  public void setProperty(Knob<?> knob, String text, String name, String origin) {
    Entry previous = entries.get(knob);
    if (previous != null
        && previous.source() == Source.ENVIRONMENT
        && !previous.value().equals(text)) {
      conflicts.add(conflict(knob, previous, text, name, origin));
    }
    entries.put(knob, new Entry(Source.PROPERTY, text, true, name, origin));
  }

  private static Problem conflict(
      Knob<?> knob, Entry environment, String text, String name, String origin) {
    return new Problem(
        List.of(name, knob.envName()),
        name
            + "='"
            + knob.showText(text)
            + "' (from "
            + origin
            + ") and "
            + knob.envName()
            + "='"
            + knob.showText((String) environment.value())
            + "' (from the environment) set the same setting to different values; remove one");
  }

  /** Sets {@code knob} from code as text, parsed and checked by {@link #resolve()}. */
  public void setText(Knob<?> knob, String text) {
    conflicts.removeIf(p -> p.variables().contains(knob.envName()));
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
    Entry[] used = new Entry[knobs.size()];
    boolean[] good = new boolean[knobs.size()];
    List<Problem> problems = new ArrayList<>();
    for (Knob<?> knob : knobs) {
      Entry entry =
          entries.getOrDefault(knob, new Entry(Source.DEFAULT, knob.defaultValue(), false));
      sources[knob.index()] = entry.source();
      used[knob.index()] = entry;
      Optional<Object> value = check(knob, entry, problems);
      value.ifPresent(v -> values[knob.index()] = v);
      good[knob.index()] = value.isPresent();
    }
    for (CrossRule rule : KnobCatalog.crossRules()) {
      if (good[rule.shorter().index()] && good[rule.longer().index()]) {
        checkCrossRule(rule, values, used, problems);
      }
    }
    problems.addAll(conflicts);
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
        problems.add(knobProblem(knob, shown, entry, e.problem()));
        return Optional.empty();
      }
    } else {
      shown = knob.show(value);
    }
    String problem = knob.problem(value);
    if (problem != null) {
      problems.add(knobProblem(knob, shown, entry, problem));
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private static Problem knobProblem(Knob<?> knob, String shown, Entry entry, String problem) {
    return new Problem(
        List.of(entry.shownName(knob)),
        entry.shownName(knob)
            + "='"
            + shown
            + "' ("
            + entry.describeSource(knob)
            + ") "
            + problem
            + "; allowed: "
            + knob.rule().describe());
  }

  private static void checkCrossRule(
      CrossRule rule, Object[] values, Entry[] entries, List<Problem> problems) {
    Knob<Duration> shorter = rule.shorter();
    Knob<Duration> longer = rule.longer();
    Duration shortValue = shorter.cast(values[shorter.index()]);
    Duration longValue = longer.cast(values[longer.index()]);
    if (rule.holds(shortValue, longValue)) {
      return;
    }
    Entry shortEntry = entries[shorter.index()];
    Entry longEntry = entries[longer.index()];
    problems.add(
        new Problem(
            List.of(shortEntry.shownName(shorter), longEntry.shownName(longer)),
            shortEntry.shownName(shorter)
                + "='"
                + shorter.show(shortValue)
                + "' ("
                + shortEntry.describeSource(shorter)
                + ") must be below "
                + longEntry.shownName(longer)
                + "='"
                + longer.show(longValue)
                + "' ("
                + longEntry.describeSource(longer)
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
