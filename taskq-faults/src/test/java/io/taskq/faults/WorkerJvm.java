package io.taskq.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A worker JVM: a child process running {@link FaultWorkerMain} on this JVM's class path with a 128
 * MB heap, its output copied to {@code <log dir>/<name>.log}. Controls: {@link #kill()} (SIGKILL),
 * {@link #freeze()} / {@link #thaw()} (SIGSTOP / SIGCONT), {@link #stop(Duration)} (SIGTERM: a
 * graceful {@code TaskQ.close()}), and {@link #awaitReady(Duration)}.
 */
final class WorkerJvm implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;
  private final CompletableFuture<String> ready = new CompletableFuture<>();
  private final CompletableFuture<Void> stoppedLine = new CompletableFuture<>();
  private final AtomicLong fenced = new AtomicLong();
  private final ProbeWatch probes = new ProbeWatch();
  private final Thread reader;

  private WorkerJvm(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.reader = new Thread(this::copyOutput, "worker-jvm-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a worker JVM.
   *
   * @param name a short name for logs and messages ("a", "b")
   * @param env the {@code TASKQ_*} and {@code FAULTS_*} variables it gets (added to this JVM's)
   * @param logDir where its log goes
   */
  static WorkerJvm start(String name, Map<String, String> env, Path logDir) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx128m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    command.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    command.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(FaultWorkerMain.class.getName());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    // Only what the scenario sets: a TASKQ_* variable of the build's environment must not leak in.
    builder.environment().keySet().removeIf(k -> k.startsWith("TASKQ_") || k.startsWith("FAULTS_"));
    builder.environment().putAll(env);
    try {
      Files.createDirectories(logDir);
      Path log = logDir.resolve(name + ".log");
      // To rerun a worker by hand: java -cp "$(cat classpath.txt)" io.taskq.faults.FaultWorkerMain
      Files.writeString(logDir.resolve("classpath.txt"), System.getProperty("java.class.path"));
      return new WorkerJvm(name, builder.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start worker JVM " + name, e);
    }
  }

  private void copyOutput() {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer out =
            Files.newBufferedWriter(
                log,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.write('\n');
        out.flush();
        if (line.startsWith(FaultWorkerMain.READY)) {
          ready.complete(line);
        } else if (line.startsWith(FaultWorkerMain.FENCED)) {
          fenced.incrementAndGet();
        } else if (line.startsWith(FaultWorkerMain.PROBE)) {
          probes.heard(line);
        } else if (line.startsWith(FaultWorkerMain.STOPPED)) {
          stoppedLine.complete(null);
        }
      }
    } catch (IOException e) {
      // The process went away; what it printed so far is in the log.
    } finally {
      ready.completeExceptionally(
          new IllegalStateException("worker JVM " + name + " exited before it was ready"));
    }
  }

  /** Waits until TaskQ started in the child (its READY line), or fails naming its log. */
  WorkerJvm awaitReady(Duration limit) {
    try {
      ready.get(limit.toMillis(), TimeUnit.MILLISECONDS);
      return this;
    } catch (TimeoutException e) {
      throw new AssertionError(
          "worker JVM " + name + " did not start TaskQ within " + limit + "; see " + log);
    } catch (ExecutionException e) {
      throw new AssertionError(e.getCause().getMessage() + "; see " + log + tail(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** {@return the child's process id} */
  long pid() {
    return process.pid();
  }

  String name() {
    return name;
  }

  Path log() {
    return log;
  }

  /** What the worker has logged so far; empty when the log cannot be read (yet). */
  String logText() {
    try {
      return java.nio.file.Files.readString(log);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** {@return how many fenced writes the child reported (its JobListener.writeFenced calls)} */
  long fencedWrites() {
    return fenced.get();
  }

  /**
   * The child's probe lines ({@code FAULTS_PROBE_MS}, R1): {@link ProbeWatch#reset()} starts a
   * window, {@link ProbeWatch#figures()} reads it.
   */
  ProbeWatch probes() {
    return probes;
  }

  /** How the child's probe calls went in a window: how many, the slowest, the longest silence. */
  static final class ProbeWatch {
    private long count;
    private long slowestMs;
    private long lastNanos = System.nanoTime();
    private long longestGapNanos;

    synchronized void heard(String line) {
      long now = System.nanoTime();
      String rest = line.substring(FaultWorkerMain.PROBE.length()).trim();
      int space = rest.indexOf(' ');
      count++;
      slowestMs = Math.max(slowestMs, Long.parseLong(space < 0 ? rest : rest.substring(0, space)));
      longestGapNanos = Math.max(longestGapNanos, now - lastNanos);
      lastNanos = now;
    }

    /** Starts a new window now. */
    synchronized void reset() {
      count = 0;
      slowestMs = 0;
      longestGapNanos = 0;
      lastNanos = System.nanoTime();
    }

    /** The window so far; the silence since the last line counts as a gap. */
    synchronized Figures figures() {
      long gap = Math.max(longestGapNanos, System.nanoTime() - lastNanos);
      return new Figures(count, slowestMs, gap / 1_000_000);
    }

    /** A window's probes: how many answered, the slowest call, the longest time without one. */
    record Figures(long count, long slowestMs, long longestGapMs) {}
  }

  /** SIGKILL: the process dies at once, no outcome recorded, no lease released. */
  void kill() {
    signal("KILL");
    waitExit(Duration.ofSeconds(10));
  }

  /** SIGSTOP: every thread stops; sockets stay open, leases and heartbeats lapse. */
  void freeze() {
    signal("STOP");
  }

  /** SIGCONT after {@link #freeze()}. */
  void thaw() {
    signal("CONT");
  }

  /** SIGTERM: the child's shutdown hook closes TaskQ gracefully; waits for it to exit. */
  void stop(Duration limit) {
    thaw();
    // Not Process.destroy(): it closes the pipes too, and the child's last lines would be lost.
    signal("TERM");
    waitExit(limit);
    if (!stoppedLine.isDone()) {
      throw new AssertionError(
          "worker JVM "
              + name
              + " exited ("
              + process.exitValue()
              + ") without a graceful stop; see "
              + log);
    }
  }

  private void waitExit(Duration limit) {
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("worker JVM " + name + " did not exit within " + limit);
      }
      // Its last lines are still in the pipe: read them before anyone looks.
      reader.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private void signal(String signal) {
    if (!process.isAlive()) {
      return;
    }
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill -" + signal + " " + pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return "\nits last lines:\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "";
    }
  }

  /** Kills what is left: a test that failed half-way must not leave a JVM behind. */
  @Override
  public void close() {
    if (process.isAlive()) {
      signal("CONT");
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return "worker JVM " + name + " (pid " + pid() + ")";
  }
}
