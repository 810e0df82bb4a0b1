package io.taskq.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Collects each figure over several runs, prints medians, ratios and targets. */
final class Figures {
  private final Map<String, List<Double>> samples = new TreeMap<>();
  private final Map<String, String> units = new TreeMap<>();
  private final List<String> missed = new ArrayList<>();

  void add(String name, String unit, double value) {
    samples.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    units.put(name, unit);
    System.out.printf(Locale.ROOT, "  %-44s %14.2f %s%n", name, value, unit);
  }

  double median(String name) {
    List<Double> values = new ArrayList<>(samples.getOrDefault(name, List.of()));
    if (values.isEmpty()) {
      return Double.NaN;
    }
    values.sort(null);
    int mid = values.size() / 2;
    return values.size() % 2 == 1 ? values.get(mid) : (values.get(mid - 1) + values.get(mid)) / 2;
  }

  /** Prints the medians of the figures whose names start with {@code prefix}. */
  void printMedians(String prefix) {
    System.out.println();
    System.out.println("Medians over all runs:");
    for (String name : samples.keySet()) {
      if (!name.startsWith(prefix)) {
        continue;
      }
      System.out.printf(Locale.ROOT, "  %-44s %14.2f %s%n", name, median(name), units.get(name));
    }
  }

  /** Prints the ratio of two medians and whether it reaches {@code atLeast}. */
  void printRatio(String label, String numerator, String denominator, double atLeast) {
    double ratio = median(numerator) / median(denominator);
    verdict(label, ratio, "x", ratio >= atLeast, String.format(Locale.ROOT, ">= %.1fx", atLeast));
  }

  /** Prints a median and whether it stays at or below {@code atMost}. */
  void printAtMost(String label, String name, double atMost) {
    double value = median(name);
    verdict(label, value, units.getOrDefault(name, ""), value <= atMost, "<= " + atMost);
  }

  /** Prints a median and whether it stays below {@code below}. */
  void printBelow(String label, String name, double below) {
    double value = median(name);
    verdict(label, value, units.getOrDefault(name, ""), value < below, "< " + below);
  }

  /** Prints that the figure behind {@code label} was not run this time (no verdict, no miss). */
  void printNotRun(String label) {
    System.out.printf(Locale.ROOT, "  %-44s %14s%n", label, "not run");
  }

  private void verdict(String label, double value, String unit, boolean met, String target) {
    System.out.printf(
        Locale.ROOT,
        "  %-44s %14.2f %-6s target %-10s %s%n",
        label,
        value,
        unit,
        target,
        met ? "met" : "MISSED");
    if (!met) {
      missed.add(label);
    }
  }

  /** The labels of the targets missed so far. */
  List<String> missed() {
    return List.copyOf(missed);
  }

  /** The {@code q} quantile (0 to 1, nearest rank) of {@code values}; NaN when empty. */
  static double quantile(List<Long> values, double q) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
