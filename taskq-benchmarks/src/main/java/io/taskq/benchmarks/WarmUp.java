package io.taskq.benchmarks;

import java.util.Locale;

/**
 * The untimed runs before an end-to-end figure's first measured one: at least {@code --warmup-runs}
 * of both sides, then more, up to {@code --warmup-max-runs}, until a run in which neither side's
 * JIT compiler used more than {@value #QUIET_JIT_MICROS} µs of CPU per job.
 *
 * <p>Why a rule and not a count: TaskQ's claim and completion methods run once per batch of about
 * 140 jobs, so they reach the JIT compiler's top tier only after some 600 batches, four to five
 * runs of 20 000 jobs; until then the compiler works inside the timed intervals (24 to 54 µs of CPU
 * per job in each of the first five runs, 1.5 µs in the sixth, on two cores where the compiler's
 * CPU is taken from the run). A production worker is past that within its first minutes; a figure
 * measured before it is measuring the compiler.
 */
final class WarmUp {
  /** A side whose JIT compiler used at most this much CPU per job in a run is warm. */
  static final double QUIET_JIT_MICROS = 2.0;

  /** One untimed run of both sides; returns each side's JIT compiler CPU per job, raw first. */
  @FunctionalInterface
  interface Run {
    double[] jitMicrosPerJob() throws Exception;
  }

  private WarmUp() {}

  /**
   * Checks the two flags: {@code least} at least 0, {@code most} at least {@code least}.
   *
   * @throws IllegalArgumentException naming the flag
   */
  static void check(int least, int most) {
    if (least < 0) {
      throw new IllegalArgumentException("--warmup-runs must be 0 or more, was " + least);
    }
    if (most < least) {
      throw new IllegalArgumentException(
          "--warmup-max-runs must be at least --warmup-runs (" + least + "), was " + most);
    }
  }

  /** Runs {@code run} as the rule says and prints how many runs it took. */
  static void run(int least, int most, Run run) throws Exception {
    double[] jit = {Double.NaN, Double.NaN};
    int runs = 0;
    while (runs < most && (runs < least || !quiet(jit))) {
      jit = run.jitMicrosPerJob();
      runs++;
    }
    System.out.printf(
        Locale.ROOT,
        "Warm-up: %d untimed run%s of both sides (at least %d, at most %d)%s%n",
        runs,
        runs == 1 ? "" : "s",
        least,
        most,
        runs == 0
            ? ""
            : String.format(
                Locale.ROOT,
                "; JIT compiler CPU per job in the last: raw %.1f µs, TaskQ %.1f µs%s",
                jit[0],
                jit[1],
                quiet(jit) ? "" : " (not yet quiet)"));
  }

  private static boolean quiet(double[] jit) {
    return jit[0] <= QUIET_JIT_MICROS && jit[1] <= QUIET_JIT_MICROS;
  }
}
