package io.taskq.testing.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** What every private server shares: free ports, signals, bounded waits and clean stops. */
final class ServerProcess {
  private ServerProcess() {}

  /** A TCP port nobody listens on at the moment of asking (the caller retries on a lost race). */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free TCP port", e);
    }
  }

  /** Whether something accepts TCP connections on 127.0.0.1:{@code port}. */
  static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether a Redis on 127.0.0.1:{@code port} answers a plain RESP {@code PING} with PONG. */
  static boolean answersPing(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(1000);
      socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      byte[] reply = new byte[7];
      int read = socket.getInputStream().readNBytes(reply, 0, reply.length);
      return new String(reply, 0, read, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  /** Starts {@code command}, its output appended to {@code log}. */
  static Process start(List<String> command, Path log) {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + command, e);
    }
  }

  /** Runs {@code command} to its end within {@code limit}; fails naming it unless it exits 0. */
  static void run(List<String> command, Path log, Duration limit) {
    Process process = start(command, log);
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(command + " did not finish within " + limit);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          command + " exited " + process.exitValue() + "; its output is in " + log);
    }
  }

  /**
   * A new temporary directory named {@code prefix...}, readable and searchable by every user, so a
   * server run as the {@code postgres} service user (root's case) can reach its files.
   */
  static Path tempDir(String prefix) {
    try {
      Path dir = Files.createTempDirectory(prefix);
      dir.toFile().setReadable(true, false);
      dir.toFile().setExecutable(true, false);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes {@code dir} and everything in it, as far as it can. */
  static void deleteQuietly(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // A temporary directory left behind is harmless.
    }
  }

  /**
   * Waits until {@code ready} holds for the server {@code process} just started; fails at once,
   * naming {@code name} and its {@code log}, when the process exits, and after {@code limit} with
   * {@code what}.
   */
  static void awaitReady(
      Process process, String name, Path log, BooleanSupplier ready, Duration limit, String what) {
    awaitTrue(
        () -> {
          if (!process.isAlive()) {
            throw new IllegalStateException(
                name + " exited " + process.exitValue() + "; see " + log);
          }
          return ready.getAsBoolean();
        },
        limit,
        what);
  }

  /** Polls {@code condition} every 50 ms; fails naming {@code what} after {@code limit}. */
  static void awaitTrue(BooleanSupplier condition, Duration limit, String what) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(what + " within " + limit);
      }
      sleep(Duration.ofMillis(50));
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Sends {@code signal} (STOP, CONT, KILL, ...) to each process in {@code pids}. */
  static void signal(String signal, List<Long> pids) {
    if (pids.isEmpty()) {
      return;
    }
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    try {
      Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
      kill.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      kill.waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException("could not send SIG" + signal, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending SIG" + signal, e);
    }
  }

  /** Ends {@code process} and what it started: TERM, then KILL after {@code grace}. */
  static void stop(ProcessHandle process, Duration grace) {
    List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
    all.add(process);
    signal("CONT", all.stream().map(ProcessHandle::pid).toList());
    process.destroy();
    try {
      process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      all.forEach(ProcessHandle::destroyForcibly);
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      all.forEach(ProcessHandle::destroyForcibly);
    }
  }
}
