package io.taskq.testing.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where {@code initdb} and {@code postgres} live, and how to run them: PostgreSQL refuses to run as
 * root, so as root every command runs as the {@code postgres} user through {@code setpriv}, which
 * execs the program in its own place. ({@code runuser} would stay as the parent and stop itself
 * whenever its child is stopped, so a frozen server could never be reaped.)
 */
final class PostgresBinaries {
  private static final String SERVICE_USER = "postgres";

  private final Path bin;
  private final boolean root;

  private PostgresBinaries(Path bin, boolean root) {
    this.bin = bin;
    this.root = root;
  }

  static PostgresBinaries find() {
    return new PostgresBinaries(binDir(), "root".equals(System.getProperty("user.name")));
  }

  /** Debian keeps the server binaries off the PATH, one directory per major version. */
  private static Path binDir() {
    return list(Path.of("/usr/lib/postgresql")).stream()
        .filter(v -> Files.isExecutable(v.resolve("bin").resolve("postgres")))
        .max(Comparator.comparing(PostgresBinaries::major))
        .map(v -> v.resolve("bin"))
        .orElseGet(PostgresBinaries::fromPath);
  }

  private static int major(Path versionDir) {
    String version = String.valueOf(versionDir.getFileName());
    return version.matches("\\d+") ? Integer.parseInt(version) : 0;
  }

  private static Path fromPath() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":", -1)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "postgres"))) {
        return Path.of(dir);
      }
    }
    throw new IllegalStateException(
        "no PostgreSQL server binaries: neither /usr/lib/postgresql/<version>/bin/postgres"
            + " nor 'postgres' on the PATH (install the postgresql package)");
  }

  private static List<Path> list(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code program args...}, as the service user when this JVM runs as root. */
  List<String> command(String program, List<String> args) {
    return asServiceUser(bin.resolve(program), args);
  }

  /**
   * {@code executable args...}, as the service user when this JVM runs as root: for any server that
   * refuses to run as root (PgBouncer too).
   */
  List<String> asServiceUser(Path executable, List<String> args) {
    List<String> command = new ArrayList<>();
    if (root) {
      command.addAll(
          List.of(
              "setpriv",
              "--reuid=" + SERVICE_USER,
              "--regid=" + SERVICE_USER,
              "--init-groups",
              "--reset-env",
              "--"));
    }
    command.add(executable.toString());
    command.addAll(args);
    return command;
  }

  /** Hands {@code dir} to the service user when running as root (initdb needs to own it). */
  void own(Path dir) {
    if (root) {
      ServerProcess.run(
          List.of("chown", "-R", SERVICE_USER, dir.toString()),
          dir.resolve("chown.log"),
          java.time.Duration.ofSeconds(30));
    }
  }
}
