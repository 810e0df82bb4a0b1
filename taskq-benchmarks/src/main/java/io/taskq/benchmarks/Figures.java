package io.taskq.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Collects each figure over several runs and prints medians. */
final class Figures {
  private final Map<String, List<Double>> samples = new TreeMap<>();
  private final Map<String, String> units = new TreeMap<>();

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

  void printMedians() {
    System.out.println();
    System.out.println("Medians over all runs:");
    for (String name : samples.keySet()) {
      System.out.printf(Locale.ROOT, "  %-44s %14.2f %s%n", name, median(name), units.get(name));
    }
  }

  void printRatio(String label, String numerator, String denominator) {
    System.out.printf(
        Locale.ROOT, "  %-44s %14.2f x%n", label, median(numerator) / median(denominator));
  }
}
