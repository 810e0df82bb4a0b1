package io.taskq.testing;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL and Redis the tests run against, each found once per JVM when first needed
 * (decision D4; Redis only when a test uses it, P5).
 *
 * <p>For each server, in order: the URL in {@code TASKQ_TEST_JDBC_URL} / {@code
 * TASKQ_TEST_REDIS_URL} when set (the system properties {@code taskq.test.jdbc.url} / {@code
 * taskq.test.redis.url} win over the environment); else the local server on 127.0.0.1; else a
 * Testcontainers container when Docker answers; else nothing, and every test class fails with one
 * message naming each missing server, everything that was tried and how to provide it. An explicit
 * URL that does not answer is an error naming its variable, never a reason to fall back: whoever
 * set it meant that server.
 *
 * @param jdbcUrl a self-contained JDBC URL of the test database
 * @param redisUrl the URI of the test Redis
 */
record TestServers(String jdbcUrl, String redisUrl) {
  static final String JDBC_VARIABLE = "TASKQ_TEST_JDBC_URL";
  static final String REDIS_VARIABLE = "TASKQ_TEST_REDIS_URL";
  static final String LOCAL_JDBC_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  static final String LOCAL_REDIS_URL = "redis://127.0.0.1:6379";

  private static final Lazy POSTGRES_URL = new Lazy(TestServer.POSTGRES, LOCAL_JDBC_URL);
  private static final Lazy REDIS_URL = new Lazy(TestServer.REDIS, LOCAL_REDIS_URL);

  /**
   * The PostgreSQL for this JVM: discovered on first use, then the same answer (or error) forever.
   */
  static String findPostgres() {
    return POSTGRES_URL.get();
  }

  /**
   * The Redis for this JVM, discovered only when a test first asks for it (P5: a project that uses
   * no Redis needs none for its tests), then the same answer (or error) forever.
   */
  static String findRedis() {
    return REDIS_URL.get();
  }

  /** One server's URL, found once. */
  private static final class Lazy {
    private final TestServer server;
    private final String localUrl;
    private @Nullable String url;
    private @Nullable String failure;

    Lazy(TestServer server, String localUrl) {
      this.server = server;
      this.localUrl = localUrl;
    }

    synchronized String get() {
      String found = url;
      if (found != null) {
        return found;
      }
      if (failure != null) {
        throw new IllegalStateException(failure);
      }
      try {
        found =
            discover(
                server,
                Settings.system(),
                localUrl,
                ContainerFallback.detect(TestServers.class.getClassLoader()));
      } catch (IllegalStateException e) {
        failure = e.getMessage();
        throw e;
      }
      url = found;
      return found;
    }
  }

  private static String discover(
      TestServer server, Settings settings, String localUrl, ContainerFallback containers) {
    List<String> problems = new ArrayList<>();
    String url = find(server, settings, localUrl, containers, problems);
    if (url == null) {
      throw new IllegalStateException(
          "TaskQ tests run against a real "
              + server.label
              + " (D4), and "
              + String.join("; and ", problems)
              + ". See CONTRIBUTING.md, \"Services the tests need\".");
    }
    return url;
  }

  /**
   * Finds both servers.
   *
   * @param settings where the {@code TASKQ_TEST_*} variables are read
   * @param local the URLs tried when a variable is unset
   * @param containers the last resort
   * @throws IllegalStateException naming every server that could not be found, and why
   */
  static TestServers discover(Settings settings, TestServers local, ContainerFallback containers) {
    List<String> problems = new ArrayList<>();
    String jdbc = find(TestServer.POSTGRES, settings, local.jdbcUrl, containers, problems);
    String redis = find(TestServer.REDIS, settings, local.redisUrl, containers, problems);
    if (jdbc == null || redis == null) {
      throw new IllegalStateException(
          "TaskQ tests run against a real PostgreSQL and a real Redis (D4), and "
              + String.join("; and ", problems)
              + ". See CONTRIBUTING.md, \"Services the tests need\".");
    }
    return new TestServers(jdbc, redis);
  }

  private static @Nullable String find(
      TestServer server,
      Settings settings,
      String localUrl,
      ContainerFallback containers,
      List<String> problems) {
    String explicit = settings.get(server.variable);
    if (explicit != null) {
      return usable(server, explicit, problems);
    }
    String localProblem = server.probe(localUrl);
    if (localProblem == null) {
      return localUrl;
    }
    String dockerProblem = containers.unavailableReason();
    if (dockerProblem == null) {
      try {
        return server.start(containers);
      } catch (RuntimeException e) {
        dockerProblem =
            "Docker answered, but the container did not start: " + ServerProbe.oneLine(e);
      }
    }
    problems.add(missing(server, localUrl, localProblem, dockerProblem));
    return null;
  }

  /** The URL the variable names when it is usable; else null, with the problem added. */
  private static @Nullable String usable(
      TestServer server, String explicit, List<String> problems) {
    String problem = server.syntaxProblem(explicit);
    if (problem == null) {
      problem = server.probe(explicit);
    }
    if (problem != null) {
      problems.add(
          server.variable
              + "="
              + redact(explicit)
              + " is set but unusable: "
              + redact(problem)
              + ". Fix it or unset it");
      return null;
    }
    return explicit;
  }

  private static String missing(
      TestServer server, String localUrl, String localProblem, String dockerProblem) {
    return server.label
        + " is missing: "
        + server.variable
        + " is not set; nothing usable answers at "
        + redact(localUrl)
        + " ("
        + redact(localProblem)
        + "); and the Docker fallback is out: "
        + dockerProblem
        + ". Start "
        + server.label
        + " on 127.0.0.1, or set "
        + server.variable;
  }

  /** Drops any password from a URL or message before it is shown. */
  static String redact(String text) {
    return text.replaceAll("(?i)(password=)[^&\\s]*", "$1***")
        .replaceAll("://([^:/@\\s]*):[^@/\\s]*@", "://$1:***@");
  }
}
