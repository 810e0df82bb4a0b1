package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Discovery of the test servers (D4), driven by settings maps instead of the real environment. */
@Tag("Q3")
class TestServersTest {
  private static final TestServers LOCAL =
      new TestServers(TestServers.LOCAL_JDBC_URL, TestServers.LOCAL_REDIS_URL);
  private static final TestServers NOTHING_LOCAL =
      new TestServers("jdbc:postgresql://127.0.0.1:1/test?user=postgres", "redis://127.0.0.1:1");
  private static final ContainerFallback NO_DOCKER =
      ContainerFallback.unavailable("no Docker in this test");

  @Test
  void unsetVariables_meanTheLocalServers() {
    assertThat(TestServers.discover(Settings.of(Map.of()), LOCAL, NO_DOCKER)).isEqualTo(LOCAL);
  }

  @Test
  void setVariables_winOverTheLocalServers() {
    String jdbc = TestServers.LOCAL_JDBC_URL + "&ApplicationName=explicit";
    String redis = TestServers.LOCAL_REDIS_URL + "/0";
    Settings settings =
        Settings.of(
            Map.of(TestServers.JDBC_VARIABLE, jdbc, TestServers.REDIS_VARIABLE, "  " + redis));

    assertThat(TestServers.discover(settings, NOTHING_LOCAL, NO_DOCKER))
        .isEqualTo(new TestServers(jdbc, redis));
  }

  @Test
  void jdbcVariableThatDoesNotAnswer_failsNamingTheVariable_evenThoughLocalServersAnswer() {
    Settings settings =
        Settings.of(
            Map.of(
                TestServers.JDBC_VARIABLE,
                "jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=hunter2"));

    assertThatThrownBy(() -> TestServers.discover(settings, LOCAL, NO_DOCKER))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "TASKQ_TEST_JDBC_URL=jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=***"
                + " is set but unusable")
        .hasMessageContaining("Fix it or unset it")
        .hasMessageNotContaining("hunter2")
        .hasMessageNotContaining("TASKQ_TEST_REDIS_URL");
  }

  @Test
  void jdbcVariableThatIsNotAJdbcUrl_failsSayingWhatItMustLookLike() {
    Settings settings =
        Settings.of(Map.of(TestServers.JDBC_VARIABLE, "postgres://127.0.0.1:5432/test"));

    assertThatThrownBy(() -> TestServers.discover(settings, LOCAL, NO_DOCKER))
        .hasMessageContaining("TASKQ_TEST_JDBC_URL=postgres://127.0.0.1:5432/test")
        .hasMessageContaining("must start with jdbc:postgresql://");
  }

  @Test
  void jdbcVariableNamingAMissingDatabase_passesOnTheServerReason() {
    Settings settings =
        Settings.of(
            Map.of(
                TestServers.JDBC_VARIABLE,
                "jdbc:postgresql://127.0.0.1:5432/no_such_database_here?user=postgres"));

    assertThatThrownBy(() -> TestServers.discover(settings, LOCAL, NO_DOCKER))
        .hasMessageContaining("TASKQ_TEST_JDBC_URL=")
        .hasMessageContaining("no_such_database_here\" does not exist");
  }

  @Test
  void redisVariableThatDoesNotAnswer_failsNamingTheVariable() {
    Settings settings =
        Settings.of(Map.of(TestServers.REDIS_VARIABLE, "redis://:s3cret@127.0.0.1:1"));

    assertThatThrownBy(() -> TestServers.discover(settings, LOCAL, NO_DOCKER))
        .hasMessageContaining("TASKQ_TEST_REDIS_URL=redis://:***@127.0.0.1:1 is set but unusable")
        .hasMessageNotContaining("s3cret")
        .hasMessageNotContaining("PostgreSQL is missing");
  }

  @Test
  void redisVariableThatIsNotAUri_failsSayingWhatItMustLookLike() {
    Settings settings = Settings.of(Map.of(TestServers.REDIS_VARIABLE, "127.0.0.1:6379"));

    assertThatThrownBy(() -> TestServers.discover(settings, LOCAL, NO_DOCKER))
        .hasMessageContaining("TASKQ_TEST_REDIS_URL=127.0.0.1:6379")
        .hasMessageContaining("not a Redis URI like redis://host:6379");
  }

  @Test
  void nothingAnywhereAndNoDocker_failsNamingBothServersAndEverythingTried() {
    ContainerFallback realDocker = ContainerFallback.detect(getClass().getClassLoader());

    assertThatThrownBy(() -> TestServers.discover(Settings.of(Map.of()), NOTHING_LOCAL, realDocker))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PostgreSQL is missing: TASKQ_TEST_JDBC_URL is not set")
        .hasMessageContaining("nothing usable answers at jdbc:postgresql://127.0.0.1:1/test")
        .hasMessageContaining("Redis is missing: TASKQ_TEST_REDIS_URL is not set")
        .hasMessageContaining("nothing usable answers at redis://127.0.0.1:1")
        .hasMessageContaining("Docker is not available")
        .hasMessageContaining("or set TASKQ_TEST_JDBC_URL")
        .hasMessageContaining("or set TASKQ_TEST_REDIS_URL");
  }

  @Test
  void withoutTestcontainersOnTheClassPath_theFallbackSaysSoWithoutLoadingIt() {
    ClassLoader bootstrapOnly = new ClassLoader(null) {};

    ContainerFallback fallback = ContainerFallback.detect(bootstrapOnly);

    assertThat(fallback.unavailableReason())
        .contains("Testcontainers is not on the test class path")
        .contains("org.testcontainers:postgresql");
    assertThatThrownBy(fallback::startPostgres).hasMessageContaining("Testcontainers");
  }

  @Test
  void localServersDown_andDockerAnswering_meansContainers() {
    ContainerFallback docker = new FixedContainers(LOCAL.jdbcUrl(), LOCAL.redisUrl());

    assertThat(TestServers.discover(Settings.of(Map.of()), NOTHING_LOCAL, docker)).isEqualTo(LOCAL);
  }

  @Test
  void containerThatFailsToStart_isReportedWithItsReason() {
    ContainerFallback docker = new FixedContainers(null, LOCAL.redisUrl());

    assertThatThrownBy(() -> TestServers.discover(Settings.of(Map.of()), NOTHING_LOCAL, docker))
        .hasMessageContaining("PostgreSQL is missing")
        .hasMessageContaining("Docker answered, but the container did not start: image not found")
        .hasMessageNotContaining("Redis is missing");
  }

  @Test
  void redact_hidesPasswordsInQueryParametersAndUserInfo() {
    assertThat(TestServers.redact("jdbc:postgresql://h/db?user=u&password=p4ss&ssl=true"))
        .isEqualTo("jdbc:postgresql://h/db?user=u&password=***&ssl=true");
    assertThat(TestServers.redact("redis://user:p4ss@h:6379/0"))
        .isEqualTo("redis://user:***@h:6379/0");
    assertThat(TestServers.redact("rediss://:p4ss@h")).isEqualTo("rediss://:***@h");
    assertThat(TestServers.redact("redis://127.0.0.1:6379")).isEqualTo("redis://127.0.0.1:6379");
  }

  /** Containers that "start" at fixed URLs, or fail when a URL is null. */
  private record FixedContainers(@Nullable String jdbcUrl, @Nullable String redisUrl)
      implements ContainerFallback {
    @Override
    public @Nullable String unavailableReason() {
      return null;
    }

    @Override
    public String startPostgres() {
      return started(jdbcUrl);
    }

    @Override
    public String startRedis() {
      return started(redisUrl);
    }

    private static String started(@Nullable String url) {
      if (url == null) {
        throw new IllegalStateException("image not found");
      }
      return url;
    }
  }
}
