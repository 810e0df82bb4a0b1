package io.taskq.core.internal.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The rules knobs use. Each says why a value is bad in words and describes the allowed values the
 * same way in error messages and in {@code docs/configuration.md}. Nothing is ever clamped: a value
 * outside its rule is an error.
 */
public final class Rules {
  /** The longest queue name a worker may listen on. */
  public static final int MAX_QUEUE_NAME_LENGTH = 128;

  private static final List<String> REDIS_SCHEMES =
      List.of("redis://", "rediss://", "redis-socket://", "redis-sentinel://");

  private Rules() {}

  /** An int in {@code [min, max]}. */
  public static Rule<Integer> between(int min, int max) {
    return of(min + ".." + max, value -> value < min || value > max ? "is out of range" : null);
  }

  /**
   * A duration in {@code [min, max]}; zero and negative durations are refused with their reason.
   */
  public static Rule<Duration> between(Duration min, Duration max) {
    return of(span(min, max), value -> durationProblem(value, min, max));
  }

  /** Like {@link #between(Duration, Duration)}, but 0 is also allowed and means {@code zero}. */
  public static Rule<Duration> zeroOr(String zero, Duration min, Duration max) {
    return of(
        "0 (" + zero + ") or " + span(min, max),
        value -> value.isZero() ? null : durationProblem(value, min, max));
  }

  /**
   * A whole number of seconds in {@code [min, max]}: for settings PgJDBC reads in whole seconds,
   * where a fraction would otherwise be cut off silently.
   */
  public static Rule<Duration> wholeSeconds(Duration min, Duration max) {
    return of(
        "whole seconds, " + span(min, max),
        value ->
            isWholeSeconds(value) || value.isNegative()
                ? durationProblem(value, min, max)
                : "is not a whole number of seconds");
  }

  /** Unset, or a PostgreSQL JDBC URL. */
  public static Rule<Optional<String>> jdbcUrl() {
    return ofOptional(
        "unset, or a URL starting with jdbc:postgresql:",
        url -> url.startsWith("jdbc:postgresql:") ? null : "is not a jdbc:postgresql: URL");
  }

  /** Unset, or a Redis URL as Lettuce reads it. */
  public static Rule<Optional<String>> redisUrl() {
    return ofOptional(
        "unset, or a URL starting with redis://, rediss://, redis-socket:// or redis-sentinel://",
        url ->
            REDIS_SCHEMES.stream().anyMatch(url.toLowerCase(Locale.ROOT)::startsWith)
                ? null
                : "is not a Redis URL");
  }

  /** Unset, or text without control characters. */
  public static Rule<Optional<String>> optionalText() {
    return ofOptional(
        "unset, or text without control characters",
        text -> hasControlCharacter(text) ? "contains a control character" : null);
  }

  /** Unset, or any text (passwords: nothing about them is ever reported). */
  public static Rule<Optional<String>> anyOptional() {
    return of("unset, or any text", value -> null);
  }

  /** A host name or IP address to bind to. */
  public static Rule<String> host() {
    return of(
        "a host name or IP address",
        host -> {
          if (host.isEmpty()) {
            return "is empty";
          }
          return host.chars().anyMatch(c -> Character.isWhitespace(c) || c < 0x20)
              ? "contains blanks or control characters"
              : null;
        });
  }

  /** A URL path to mount at: {@code /} or {@code /segment[/segment...]}, no trailing slash. */
  public static Rule<String> urlPath() {
    return of(
        "/ or /segment[/segment...] of letters, digits and ._~-",
        path -> path.matches("(/[A-Za-z0-9._~-]+)+|/") ? null : "is not such a path");
  }

  /** Unset, or a secret of at least {@code min} characters (nothing else about it is reported). */
  public static Rule<Optional<String>> minLength(int min) {
    return ofOptional(
        "unset, or at least " + min + " characters",
        text -> text.length() < min ? "is shorter than " + min + " characters" : null);
  }

  /** Unset, or an origin {@code http[s]://host[:port]} without a path. */
  public static Rule<Optional<String>> origin() {
    return ofOptional(
        "unset, or http[s]://host[:port]",
        text ->
            text.toLowerCase(Locale.ROOT).matches("https?://[a-z0-9.\\-\\[\\]:]+")
                ? null
                : "is not http[s]://host[:port]");
  }

  /** One of {@code values}, spelled exactly. */
  public static Rule<String> oneOf(String... values) {
    List<String> allowed = List.of(values);
    String description =
        String.join(", ", allowed.subList(0, allowed.size() - 1))
            + " or "
            + allowed.get(allowed.size() - 1);
    return of(description, value -> allowed.contains(value) ? null : "is not " + description);
  }

  /** Anything the value type could parse. */
  public static <T> Rule<T> any(String description) {
    return of(description, value -> null);
  }

  /**
   * One or more distinct queue names, each 1 to {@value #MAX_QUEUE_NAME_LENGTH} characters without
   * NUL or comma (the comma separates names in the environment form).
   */
  public static Rule<List<String>> queueNames() {
    return of(
        "1 or more distinct queue names, each 1.."
            + MAX_QUEUE_NAME_LENGTH
            + " characters without NUL or comma",
        Rules::queueListProblem);
  }

  private static @Nullable String queueListProblem(List<String> names) {
    if (names.isEmpty()) {
      return "names no queue";
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      String problem = queueNameProblem(name);
      if (problem != null) {
        return "entry " + (i + 1) + " " + problem;
      }
      if (!seen.add(name)) {
        return "lists queue '" + name + "' twice";
      }
    }
    return null;
  }

  private static @Nullable String queueNameProblem(String name) {
    if (name.isEmpty()) {
      return "is an empty queue name";
    }
    if (name.length() > MAX_QUEUE_NAME_LENGTH) {
      return "is " + name.length() + " characters long";
    }
    if (name.indexOf('\0') >= 0) {
      return "contains a NUL character";
    }
    return name.indexOf(',') >= 0 ? "contains a comma" : null;
  }

  private static @Nullable String durationProblem(Duration value, Duration min, Duration max) {
    if (value.isNegative()) {
      return "must not be negative";
    }
    if (value.isZero()) {
      return "must not be 0";
    }
    if (value.compareTo(min) < 0) {
      return "is below the minimum";
    }
    return value.compareTo(max) > 0 ? "is above the maximum" : null;
  }

  private static String span(Duration min, Duration max) {
    return DurationText.format(min) + ".." + DurationText.format(max);
  }

  private static boolean isWholeSeconds(Duration value) {
    return value.equals(Duration.ofSeconds(value.toSeconds()));
  }

  private static boolean hasControlCharacter(String text) {
    return text.chars().anyMatch(Character::isISOControl);
  }

  private static Rule<Optional<String>> ofOptional(
      String description, Function<String, @Nullable String> check) {
    return of(description, value -> value.isPresent() ? check.apply(value.get()) : null);
  }

  private static <T> Rule<T> of(String description, Function<T, @Nullable String> check) {
    return new Rule<>() {
      @Override
      public @Nullable String problem(T value) {
        return check.apply(value);
      }

      @Override
      public String describe() {
        return description;
      }
    };
  }
}
