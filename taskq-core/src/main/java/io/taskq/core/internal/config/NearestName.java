package io.taskq.core.internal.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the known name an unknown one was probably meant to be, for "did you mean" hints. Only
 * close matches count (an edit distance of at most 3, ignoring case), so the hint is a typo fix,
 * never a guess.
 */
final class NearestName {
  private static final int MAX_EDITS = 3;

  private NearestName() {}

  static Optional<String> among(String name, Collection<String> known) {
    String wanted = name.toUpperCase(Locale.ROOT);
    String best = null;
    int bestDistance = MAX_EDITS + 1;
    for (String candidate : known) {
      int distance = distance(wanted, candidate.toUpperCase(Locale.ROOT));
      if (distance < bestDistance || (distance == bestDistance && isBefore(candidate, best))) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean isBefore(
      String candidate, @org.jspecify.annotations.Nullable String best) {
    return best != null && candidate.compareTo(best) < 0;
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
