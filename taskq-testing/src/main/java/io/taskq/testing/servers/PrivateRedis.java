package io.taskq.testing.servers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A Redis server of the test's own, on a free port, with no persistence: {@code redis-server --port
 * <free> --save '' --appendonly no}. A test that pauses, flushes, freezes or kills Redis does it
 * here, never on the shared server (R8).
 *
 * <pre>{@code
 * try (PrivateRedis redis = PrivateRedis.start()) {
 *   RedisClient client = RedisClient.create(redis.uri());
 *   redis.freeze(); // SIGSTOP: every command now waits
 *   redis.thaw();
 * }
 * }</pre>
 */
public final class PrivateRedis implements AutoCloseable {
  private static final Duration START_LIMIT = Duration.ofSeconds(20);

  private final Path dir;
  private final int port;
  private Process process;

  private PrivateRedis(Path dir, int port, Process process) {
    this.dir = dir;
    this.port = port;
    this.process = process;
  }

  /**
   * Starts {@code redis-server} (from the {@code PATH}) on a free port and waits until it accepts
   * connections.
   *
   * @return the running server; close it to stop it
   * @throws IllegalStateException when it does not start within 20 s
   */
  public static PrivateRedis start() {
    Path dir = ServerProcess.tempDir("taskq-redis-");
    int port = ServerProcess.freePort();
    PrivateRedis redis = new PrivateRedis(dir, port, launch(dir, port));
    redis.awaitAccepting();
    return redis;
  }

  private static Process launch(Path dir, int port) {
    return ServerProcess.start(
        List.of(
            "redis-server",
            "--port",
            Integer.toString(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            dir.toString()),
        dir.resolve("redis.log"));
  }

  private void awaitAccepting() {
    ServerProcess.awaitReady(
        process,
        "redis-server",
        dir.resolve("redis.log"),
        () -> ServerProcess.answersPing(port),
        START_LIMIT,
        "redis-server did not accept connections on port " + port);
  }

  /**
   * The server's URI.
   *
   * @return {@code redis://127.0.0.1:<port>}
   */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /**
   * The server's port.
   *
   * @return the TCP port on 127.0.0.1
   */
  public int port() {
    return port;
  }

  /** Freezes the server with SIGSTOP: connections stay open, nothing is answered. */
  public void freeze() {
    ServerProcess.signal("STOP", List.of(process.pid()));
  }

  /** Resumes a frozen server with SIGCONT. */
  public void thaw() {
    ServerProcess.signal("CONT", List.of(process.pid()));
  }

  /** Kills the server with SIGKILL and waits for it to be gone. */
  public void kill() {
    ServerProcess.signal("KILL", List.of(process.pid()));
    process.onExit().join();
  }

  /** Starts the server again on the same port after {@link #kill()}. */
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException("the server is still running");
    }
    process = launch(dir, port);
    awaitAccepting();
  }

  /** Stops the server and deletes its files. */
  @Override
  public void close() {
    ServerProcess.stop(process.toHandle(), Duration.ofSeconds(5));
    ServerProcess.deleteQuietly(dir);
  }
}
