package io.taskq.dashboard.internal;

import java.util.Optional;

/** Parses the ids that arrive in paths, queries and forms: positive longs, nothing else. */
final class Ids {
  private Ids() {}

  /** The id {@code text} spells, or empty when it is not a positive whole number. */
  static Optional<Long> parse(String text) {
    if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    try {
      long id = Long.parseLong(text);
      return id > 0 ? Optional.of(id) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
