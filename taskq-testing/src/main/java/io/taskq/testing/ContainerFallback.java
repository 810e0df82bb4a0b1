package io.taskq.testing;

import org.jspecify.annotations.Nullable;

/**
 * The last resort of D4: PostgreSQL and Redis in Docker containers, through Testcontainers.
 *
 * <p>Testcontainers is an optional dependency of this module. {@link #detect} checks that it is on
 * the class path before the one class that imports it ({@code TestcontainersServers}) is loaded, by
 * name, so a module without it never loads a Testcontainers class and still gets a clear message.
 */
interface ContainerFallback {
  /** Why containers cannot be used here, or {@code null} when they can. */
  @Nullable String unavailableReason();

  /** Starts (once per JVM) a PostgreSQL container and returns a self-contained JDBC URL for it. */
  String startPostgres();

  /** Starts (once per JVM) a Redis container and returns its URI. */
  String startRedis();

  /** The fallback available to classes loaded by {@code loader}. */
  static ContainerFallback detect(ClassLoader loader) {
    if (!present("org.testcontainers.DockerClientFactory", loader)
        || !present("org.testcontainers.containers.PostgreSQLContainer", loader)) {
      return unavailable(
          "Testcontainers is not on the test class path (add org.testcontainers:postgresql in test"
              + " scope to let tests start PostgreSQL and Redis in Docker)");
    }
    try {
      return Class.forName("io.taskq.testing.TestcontainersServers", true, loader)
          .asSubclass(ContainerFallback.class)
          .getDeclaredConstructor()
          .newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      return unavailable("Testcontainers could not be loaded: " + ServerProbe.oneLine(e));
    }
  }

  /** A fallback that always declines, for {@code reason}. */
  static ContainerFallback unavailable(String reason) {
    return new ContainerFallback() {
      @Override
      public String unavailableReason() {
        return reason;
      }

      @Override
      public String startPostgres() {
        throw new IllegalStateException(reason);
      }

      @Override
      public String startRedis() {
        throw new IllegalStateException(reason);
      }
    };
  }

  private static boolean present(String className, ClassLoader loader) {
    try {
      Class.forName(className, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
