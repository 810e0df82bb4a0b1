package io.taskq.core.internal.config;

import java.time.Duration;

/**
 * A rule between two duration knobs: {@code shorter} must be strictly below {@code longer}. Each
 * exists because breaking it fails silently at run time (a missed event, a lease lost while the
 * worker is healthy, a client giving up before the server's own timeout).
 *
 * @param why the failure the rule prevents, as the error message and the documentation say it
 */
public record CrossRule(Knob<Duration> shorter, Knob<Duration> longer, String why) {
  /** True when the two values keep the rule. */
  public boolean holds(Duration shorterValue, Duration longerValue) {
    return shorterValue.compareTo(longerValue) < 0;
  }

  /** The rule as the documentation states it: {@code TASKQ_A < TASKQ_B}. */
  public String describe() {
    return shorter.envName() + " < " + longer.envName();
  }
}
