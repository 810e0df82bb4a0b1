package io.taskq.testing.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A PgBouncer of the test's own (Debian's {@code pgbouncer} package), in {@code
 * pool_mode=transaction} on a free port of 127.0.0.1 in front of a PostgreSQL on the same host: the
 * transaction pooler that breaks session state (R2). Trust authentication for the user {@code
 * postgres}; every database name is passed through to the server. As root it runs as the {@code
 * postgres} user (PgBouncer refuses to run as root), like {@link PrivatePostgres}.
 *
 * <pre>{@code
 * try (PrivatePostgres pg = PrivatePostgres.start();
 *     PrivatePgBouncer bouncer = PrivatePgBouncer.inFrontOf(pg.port())) {
 *   String pooled = bouncer.jdbcUrl("postgres"); // through the pooler
 *   String direct = pg.jdbcUrl();                // straight to PostgreSQL
 * }
 * }</pre>
 */
public final class PrivatePgBouncer implements AutoCloseable {
  private static final Duration START_LIMIT = Duration.ofSeconds(30);
  private static final Path EXECUTABLE = Path.of("/usr/sbin/pgbouncer");

  private final Path dir;
  private final int port;
  private final Process process;
  private boolean stopped;

  private PrivatePgBouncer(Path dir, int port, Process process) {
    this.dir = dir;
    this.port = port;
    this.process = process;
  }

  /**
   * Starts PgBouncer in transaction mode in front of the PostgreSQL on 127.0.0.1:{@code
   * postgresPort}, with a server pool of 4 connections per database and user (fewer than TaskQ's
   * clients, so sessions share server connections as in production).
   *
   * @param postgresPort the PostgreSQL server's port on 127.0.0.1
   * @return the running pooler; close it to stop it and delete its files
   * @throws IllegalStateException when PgBouncer is not installed or does not start within 30 s
   */
  public static PrivatePgBouncer inFrontOf(int postgresPort) {
    if (!Files.isExecutable(EXECUTABLE)) {
      throw new IllegalStateException(
          "no " + EXECUTABLE + ": install Debian's pgbouncer package (apt-get install pgbouncer)");
    }
    PostgresBinaries binaries = PostgresBinaries.find();
    Path dir = ServerProcess.tempDir("taskq-pgbouncer-");
    int port = ServerProcess.freePort();
    Path ini = dir.resolve("pgbouncer.ini");
    write(dir.resolve("users.txt"), "\"postgres\" \"\"\n");
    write(
        ini,
        String.join(
            "\n",
            "[databases]",
            "* = host=127.0.0.1 port=" + postgresPort,
            "[pgbouncer]",
            "listen_addr = 127.0.0.1",
            "listen_port = " + port,
            "unix_socket_dir =",
            "auth_type = trust",
            "auth_file = " + dir.resolve("users.txt"),
            "pool_mode = transaction",
            "default_pool_size = 4",
            "max_client_conn = 200",
            "ignore_startup_parameters = extra_float_digits",
            "pidfile = " + dir.resolve("pgbouncer.pid"),
            "logfile = " + dir.resolve("pgbouncer.log"),
            "admin_users = postgres",
            ""));
    binaries.own(dir);
    Process process =
        ServerProcess.start(
            binaries.asServiceUser(EXECUTABLE, List.of(ini.toString())), dir.resolve("out.log"));
    PrivatePgBouncer bouncer = new PrivatePgBouncer(dir, port, process);
    ServerProcess.awaitReady(
        process,
        "pgbouncer",
        dir.resolve("out.log"),
        () -> ServerProcess.accepts(port),
        START_LIMIT,
        "PgBouncer did not accept connections on port " + port);
    return bouncer;
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The pooler's port.
   *
   * @return the TCP port on 127.0.0.1
   */
  public int port() {
    return port;
  }

  /**
   * A JDBC URL of {@code database} through the pooler, as user {@code postgres}.
   *
   * @param database the database on the PostgreSQL server behind the pooler
   * @return {@code jdbc:postgresql://127.0.0.1:<port>/<database>?user=postgres}
   */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
  }

  /**
   * Stops PgBouncer and deletes its files. When PgBouncer had already exited without being stopped
   * (its clients then met {@code Connection refused}), it first prints the exit value and the end
   * of PgBouncer's log, which goes with its files.
   */
  @Override
  public void close() {
    if (!process.isAlive() && !stopped) {
      System.out.println(
          "PgBouncer on port "
              + port
              + " had exited ("
              + process.exitValue()
              + ") before it was stopped; the end of its log:\n"
              + tail(dir.resolve("pgbouncer.log"), 20));
    }
    stopped = true;
    ServerProcess.stop(process.toHandle(), Duration.ofSeconds(10));
    ServerProcess.deleteQuietly(dir);
  }

  private static String tail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(no log: " + e + ")";
    }
  }
}
