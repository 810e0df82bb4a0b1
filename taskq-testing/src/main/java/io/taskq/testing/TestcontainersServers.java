package io.taskq.testing;

import org.jspecify.annotations.Nullable;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The only class that touches Testcontainers; loaded by name from {@link ContainerFallback#detect}
 * only after Testcontainers was found on the class path.
 *
 * <p>Containers are started at most once per JVM and stopped by Testcontainers' own reaper when the
 * JVM exits; each test class still gets its own schema and key prefix inside them.
 */
final class TestcontainersServers implements ContainerFallback {
  private static final String POSTGRES_IMAGE = "postgres:15";
  private static final String REDIS_IMAGE = "redis:7";
  private static final int REDIS_PORT = 6379;

  private static @Nullable String postgresUrl;
  private static @Nullable String redisUrl;

  TestcontainersServers() {}

  @Override
  public @Nullable String unavailableReason() {
    try {
      return DockerClientFactory.instance().isDockerAvailable()
          ? null
          : "Testcontainers is on the class path, but Docker is not available (no Docker engine"
              + " answered; start one, or provide the servers another way)";
    } catch (RuntimeException | LinkageError e) {
      return "Docker is not available to Testcontainers: " + ServerProbe.oneLine(e);
    }
  }

  @Override
  public String startPostgres() {
    return postgres();
  }

  @Override
  public String startRedis() {
    return redis();
  }

  private static synchronized String postgres() {
    String url = postgresUrl;
    if (url == null) {
      PostgreSQLContainer<?> pg =
          new PostgreSQLContainer<>(DockerImageName.parse(POSTGRES_IMAGE))
              .withDatabaseName("test")
              .withUsername("postgres")
              .withPassword("postgres");
      pg.start();
      String base = pg.getJdbcUrl();
      url =
          base
              + (base.contains("?") ? "&" : "?")
              + "user="
              + pg.getUsername()
              + "&password="
              + pg.getPassword();
      postgresUrl = url;
    }
    return url;
  }

  private static synchronized String redis() {
    String url = redisUrl;
    if (url == null) {
      GenericContainer<?> redis =
          new GenericContainer<>(DockerImageName.parse(REDIS_IMAGE)).withExposedPorts(REDIS_PORT);
      redis.start();
      url = "redis://" + redis.getHost() + ":" + redis.getMappedPort(REDIS_PORT);
      redisUrl = url;
    }
    return url;
  }
}
