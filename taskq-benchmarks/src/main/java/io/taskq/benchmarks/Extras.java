package io.taskq.benchmarks;

/**
 * Figure (f): the benchmarks of the event feed and the Redis rate limiter, written beside their
 * modules and run here so the one command prints every figure.
 *
 * <p>NOT YET WIRED: {@code FeedBenchmark} and {@code RateLimitBenchmark} were not on main when this
 * runner was written. Once they are, call their static entry points here.
 */
final class Extras {
  private Extras() {}

  static void run() {
    System.out.println();
    System.out.println("(f) event feed and Redis rate limiter: not wired yet (see Extras)");
  }
}
