package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A worker JVM whose wall clock is off by a fixed offset: libfaketime (Debian's {@code faketime}
 * package) preloaded into the child, {@code FAKETIME="+300s"}. The JVM reads the wall clock ({@code
 * Instant.now()}, {@code System.currentTimeMillis()}) through {@code
 * clock_gettime(CLOCK_REALTIME)}, which libfaketime shifts. The monotonic clock is shifted by the
 * same constant (so {@code System.nanoTime()} differences, every timeout and tick, are unchanged):
 * with {@code FAKETIME_DONT_FAKE_MONOTONIC=1} libfaketime 0.9.10 slowed the JVM about five times
 * (an allocation loop: 5 s against 0.5 s with both clocks shifted), too slow for a worker to start
 * in time on a loaded machine.
 */
final class Skew {
  static final Path LIBFAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
  private static final Pattern CLOCK = Pattern.compile("clock=(\\S+)");

  private Skew() {}

  /** The environment that shifts a worker JVM's wall clock by {@code offset}. */
  static Map<String, String> env(Duration offset) {
    if (!Files.isReadable(LIBFAKETIME)) {
      throw new AssertionError(
          "no " + LIBFAKETIME + ": install Debian's faketime package (apt-get install faketime)");
    }
    Map<String, String> env = new LinkedHashMap<>();
    env.put("LD_PRELOAD", LIBFAKETIME.toString());
    env.put("FAKETIME", (offset.isNegative() ? "-" : "+") + offset.abs().toSeconds() + "s");
    return env;
  }

  /**
   * The offset of {@code worker}'s wall clock from this JVM's, read from its {@code READY} line
   * ({@code clock=<Instant.now()>} when it started): call it right after {@link
   * WorkerJvm#awaitReady}, so it is off by no more than the time since that line.
   */
  static Duration measured(WorkerJvm worker) {
    try {
      for (String line : Files.readAllLines(worker.log())) {
        if (line.startsWith(FaultWorkerMain.READY)) {
          Matcher m = CLOCK.matcher(line);
          assertThat(m.find()).as("clock= in %s", line).isTrue();
          return Duration.between(Instant.now(), Instant.parse(m.group(1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionError("no READY line in " + worker.log());
  }
}
