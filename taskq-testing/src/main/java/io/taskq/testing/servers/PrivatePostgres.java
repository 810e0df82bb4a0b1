package io.taskq.testing.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A PostgreSQL cluster of the test's own: {@code initdb} into a temporary directory, the server on
 * a free port of 127.0.0.1 with trust authentication for the user {@code postgres}. A test that
 * freezes, restarts, terminates sessions or counts anything server-wide does it here, never on the
 * shared server (R8). As root, the cluster runs as the {@code postgres} user.
 *
 * <pre>{@code
 * try (PrivatePostgres pg = PrivatePostgres.start()) {
 *   DataSource ds = ...pg.jdbcUrl()...;
 *   pg.freeze();            // SIGSTOP on every server process
 *   pg.thaw();
 *   pg.restartImmediately(); // like pg_ctl restart -m immediate
 * }
 * }</pre>
 */
public final class PrivatePostgres implements AutoCloseable {
  private static final Duration START_LIMIT = Duration.ofSeconds(60);

  private final PostgresBinaries binaries;
  private final Path dir;
  private final Path data;
  private final int port;
  private final List<String> settings;
  private Process process;

  private PrivatePostgres(
      PostgresBinaries binaries, Path dir, int port, List<String> settings, Process process) {
    this.binaries = binaries;
    this.dir = dir;
    this.data = dir.resolve("data");
    this.port = port;
    this.settings = settings;
    this.process = process;
  }

  /**
   * Creates and starts a cluster with the default settings: fsync off (only an operating-system
   * crash could lose data, and the cluster is thrown away), synchronous commit on, so a commit the
   * client saw survives an immediate restart.
   *
   * @return the running cluster; close it to stop it and delete its files
   */
  public static PrivatePostgres start() {
    return start(List.of());
  }

  /**
   * Creates and starts a cluster, passing each of {@code settings} as {@code -c name=value}.
   *
   * @param settings server settings such as {@code "idle_in_transaction_session_timeout=1s"}
   * @return the running cluster
   * @throws IllegalStateException when initdb fails or the server does not start within 60 s
   */
  public static PrivatePostgres start(List<String> settings) {
    PostgresBinaries binaries = PostgresBinaries.find();
    Path dir = ServerProcess.tempDir("taskq-pg-");
    binaries.own(dir);
    ServerProcess.run(
        binaries.command(
            "initdb",
            List.of(
                "-D",
                dir.resolve("data").toString(),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync")),
        dir.resolve("initdb.log"),
        Duration.ofMinutes(2));
    int port = ServerProcess.freePort();
    PrivatePostgres pg =
        new PrivatePostgres(
            binaries, dir, port, List.copyOf(settings), launch(binaries, dir, port, settings));
    pg.awaitAccepting();
    return pg;
  }

  private static Process launch(
      PostgresBinaries binaries, Path dir, int port, List<String> settings) {
    List<String> args = new ArrayList<>(List.of("-D", dir.resolve("data").toString()));
    args.addAll(List.of("-p", Integer.toString(port)));
    for (String setting :
        concat(
            List.of(
                "listen_addresses=127.0.0.1",
                "unix_socket_directories=" + dir,
                "fsync=off",
                "full_page_writes=off",
                "max_connections=200"),
            settings)) {
      args.addAll(List.of("-c", setting));
    }
    return ServerProcess.start(binaries.command("postgres", args), dir.resolve("server.log"));
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private void awaitAccepting() {
    ServerProcess.awaitReady(
        process,
        "postgres",
        log(),
        () -> ServerProcess.accepts(port) && postmasterPid() > 0 && answersQuery(),
        START_LIMIT,
        "PostgreSQL did not accept connections on port " + port + " (log: " + log() + ")");
  }

  private boolean answersQuery() {
    Properties props = new Properties();
    props.setProperty("connectTimeout", "5");
    props.setProperty("socketTimeout", "5");
    try (Connection c = DriverManager.getConnection(jdbcUrl(), props)) {
      return c.isValid(5);
    } catch (SQLException e) {
      return false;
    }
  }

  private Path log() {
    return dir.resolve("server.log");
  }

  /**
   * A self-contained JDBC URL of the cluster's {@code postgres} database.
   *
   * @return {@code jdbc:postgresql://127.0.0.1:<port>/postgres?user=postgres}
   */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
  }

  /**
   * The cluster's port.
   *
   * @return the TCP port on 127.0.0.1
   */
  public int port() {
    return port;
  }

  /**
   * The postmaster's process id, read from {@code postmaster.pid}.
   *
   * @return the pid, or 0 while the server has not written it
   */
  public long postmasterPid() {
    try {
      List<String> lines = Files.readAllLines(data.resolve("postmaster.pid"));
      return lines.isEmpty() || lines.get(0).isBlank() ? 0 : Long.parseLong(lines.get(0).trim());
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  /** Every server process: the postmaster and each backend and auxiliary process. */
  private List<Long> serverPids() {
    long postmaster = postmasterPid();
    List<Long> pids = new ArrayList<>();
    ProcessHandle.of(postmaster)
        .ifPresent(
            p -> {
              pids.add(p.pid());
              p.descendants().forEach(d -> pids.add(d.pid()));
            });
    return pids;
  }

  /**
   * Freezes the whole server with SIGSTOP on every server process: connections stay open and
   * nothing is answered, as with a hung host. New backends forked later are not frozen (none can
   * be: the postmaster itself is stopped).
   */
  public void freeze() {
    // The postmaster first, so it forks no backend after the list of its children is taken.
    ServerProcess.signal("STOP", List.of(postmasterPid()));
    ServerProcess.signal("STOP", serverPids());
  }

  /** Resumes a frozen server with SIGCONT on every server process. */
  public void thaw() {
    ServerProcess.signal("CONT", serverPids());
  }

  /**
   * Immediate shutdown (SIGQUIT to the postmaster, as {@code pg_ctl stop -m immediate}): every
   * session is cut without a checkpoint; the next start runs crash recovery.
   */
  public void stopImmediately() {
    thaw();
    long postmaster = postmasterPid();
    ServerProcess.signal("QUIT", List.of(postmaster));
    ServerProcess.awaitTrue(
        () -> ProcessHandle.of(postmaster).map(p -> !p.isAlive()).orElse(true),
        Duration.ofSeconds(30),
        "the postmaster did not exit after SIGQUIT");
    process.onExit().join();
  }

  /** Starts the server again on the same port after {@link #stopImmediately()}. */
  public void startAgain() {
    if (process.isAlive()) {
      throw new IllegalStateException("the server is still running");
    }
    process = launch(binaries, dir, port, settings);
    awaitAccepting();
  }

  /** {@link #stopImmediately()} then {@link #startAgain()}: {@code pg_ctl restart -m immediate}. */
  public void restartImmediately() {
    stopImmediately();
    startAgain();
  }

  /** Stops the server (fast shutdown) and deletes the cluster's files. */
  @Override
  public void close() {
    thaw();
    long postmaster = postmasterPid();
    if (postmaster > 0) {
      ServerProcess.signal("INT", List.of(postmaster));
    }
    ServerProcess.stop(process.toHandle(), Duration.ofSeconds(20));
    ServerProcess.deleteQuietly(dir);
  }
}
