package io.taskq.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.StreamSupport;

/**
 * CPU time used by this JVM (and of it, by its JIT compiler threads) and by the PostgreSQL server
 * processes on this machine, read from Linux's {@code /proc}: what the scale mode prints beside an
 * end-to-end run, so a figure bound by two busy cores says where the cores went.
 *
 * <p>Times are in clock ticks ({@code utime + stime}, 100 per second on Linux). The JVM's total
 * comes from {@code /proc/self/stat}, which keeps the time of threads that have ended; the JIT's
 * from the live threads named {@code C1/C2 CompilerThread}, which live as long as the JVM. The
 * server's is the sum over every process named {@code postgres}, so it means something only when
 * the database runs on this machine and nothing else runs one; where {@code /proc} is missing (not
 * Linux), every reading is zero and {@link #perJobSince} says so.
 *
 * @param jvm this process's ticks
 * @param jit of them, the JIT compiler threads' ticks
 * @param postgres the ticks of every {@code postgres} process on this machine
 */
record CpuTicks(long jvm, long jit, long postgres) {
  private static final Path PROC = Path.of("/proc");

  /** Microseconds per clock tick: Linux's {@code USER_HZ} is 100. */
  private static final double MICROS_PER_TICK = 10_000;

  static CpuTicks read() {
    if (!Files.isDirectory(PROC)) {
      return new CpuTicks(0, 0, 0);
    }
    long jvm = ticks(PROC.resolve("self/stat"));
    long jit = 0;
    for (Path thread : list(PROC.resolve("self/task"))) {
      if (name(thread.resolve("stat")).contains("CompilerThre")) {
        jit += ticks(thread.resolve("stat"));
      }
    }
    long postgres = 0;
    for (Path process : list(PROC)) {
      if (process.getFileName().toString().chars().allMatch(Character::isDigit)
          && name(process.resolve("stat")).equals("postgres")) {
        postgres += ticks(process.resolve("stat"));
      }
    }
    return new CpuTicks(jvm, jit, postgres);
  }

  /** What was used since {@code before}, per job, as one line of the benchmark's output. */
  String perJobSince(CpuTicks before, long jobs) {
    if (jvm == 0) {
      return "CPU per job: not read (no /proc)";
    }
    return String.format(
        Locale.ROOT,
        "CPU per job: JVM %.1f µs (JIT compiler %.1f µs), PostgreSQL processes %.1f µs",
        (jvm - before.jvm) * MICROS_PER_TICK / jobs,
        (jit - before.jit) * MICROS_PER_TICK / jobs,
        (postgres - before.postgres) * MICROS_PER_TICK / jobs);
  }

  /**
   * The CPU used between two readings, per job.
   *
   * @param line {@link #perJobSince}'s line
   * @param jitMicrosPerJob of it, the JIT compiler threads' microseconds per job; 0 without {@code
   *     /proc}, where no warm-up can be told apart from another
   */
  record Used(String line, double jitMicrosPerJob) {}

  /** What was used since {@code before}, per job, as {@link #perJobSince} and in figures. */
  Used usedSince(CpuTicks before, long jobs) {
    return new Used(perJobSince(before, jobs), (jit - before.jit) * MICROS_PER_TICK / jobs);
  }

  private static List<Path> list(Path directory) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      return StreamSupport.stream(entries.spliterator(), false).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code comm} field of a {@code stat} file; empty when the task or process has ended. */
  private static String name(Path stat) {
    String line = readOrEmpty(stat);
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    return open < 0 || close < open ? "" : line.substring(open + 1, close);
  }

  /** {@code utime + stime} of a {@code stat} file; 0 when the task or process has ended. */
  private static long ticks(Path stat) {
    String line = readOrEmpty(stat);
    int close = line.lastIndexOf(')');
    if (close < 0) {
      return 0;
    }
    // After "pid (comm) ": state is field 3, utime field 14 and stime field 15 of the whole line.
    String[] fields = line.substring(close + 2).split(" ", 14);
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  private static String readOrEmpty(Path stat) {
    try {
      return Files.readString(stat);
    } catch (IOException e) {
      return ""; // the thread or process ended between the listing and the read
    }
  }
}
