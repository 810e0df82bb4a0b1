package io.taskq.metrics;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a Prometheus text scrape in tests. */
public final class Scrape {
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)", Pattern.MULTILINE);

  private final String text;

  public Scrape(String text) {
    this.text = text;
  }

  /** Every sample's metric name. */
  public Set<String> names() {
    Set<String> names = new TreeSet<>();
    Matcher m = SAMPLE.matcher(text);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /**
   * The value of the one sample named {@code name} whose labels contain every {@code labels}
   * fragment (e.g. {@code sweep_name="cron"}), or null when there is none.
   */
  public Double value(String name, String... labels) {
    Matcher m = SAMPLE.matcher(text);
    while (m.find()) {
      if (!m.group(1).equals(name)) {
        continue;
      }
      String set = m.group(2) == null ? "" : m.group(2);
      boolean all = true;
      for (String label : labels) {
        all &= set.contains(label);
      }
      if (all) {
        return Double.valueOf(m.group(3));
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return text;
  }
}
