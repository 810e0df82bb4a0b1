package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.postgres.internal.JdbcTarget;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R3: a database URL with user-info ({@code jdbc:postgresql://user:secret@host/db}) logs in as that
 * user with that password, and the password never shows: not in an exception, its causes, or any
 * log line at any level. The log check runs a child JVM with every SLF4J logger at TRACE and
 * PgJDBC's java.util.logging at ALL, and reads everything it printed.
 */
@TaskQTest
@Tag("R3")
class UrlUserInfoTest {
  private static final String SECRET = "S3cr3tPw-x9";

  /** {@code jdbc:postgresql://postgres:SECRET@host:port/db...} from the test database's URL. */
  private static String withUserInfo(String jdbcUrl, String password) {
    return jdbcUrl.replaceFirst(
        "^jdbc:postgresql://", "jdbc:postgresql://postgres:" + password + "@");
  }

  @Test
  void userInfo_becomesUserAndPassword_andLeavesTheUrl() {
    JdbcTarget t = JdbcTarget.of("jdbc:postgresql://app:p%40ss:w@db:5433,db2/orders?ssl=true", "X");
    assertThat(t.url()).isEqualTo("jdbc:postgresql://db:5433,db2/orders?ssl=true");
    assertThat(t.user()).isEqualTo("app");
    assertThat(t.password()).isEqualTo("p@ss:w");
    assertThat(t.toString()).doesNotContain("p@ss");

    JdbcTarget userOnly = JdbcTarget.of("jdbc:postgresql://app@db/orders", "X");
    assertThat(userOnly.url()).isEqualTo("jdbc:postgresql://db/orders");
    assertThat(userOnly.user()).isEqualTo("app");
    assertThat(userOnly.password()).isNull();

    JdbcTarget none = JdbcTarget.of("jdbc:postgresql://db/orders?user=a@b", "X");
    assertThat(none.url()).isEqualTo("jdbc:postgresql://db/orders?user=a@b");
    assertThat(none.user()).isNull();

    JdbcTarget param =
        JdbcTarget.of("jdbc:postgresql://db/orders?user=a&password=x%26y&ssl=1", "X");
    assertThat(param.url()).isEqualTo("jdbc:postgresql://db/orders?user=a&ssl=1");
    assertThat(param.password()).isEqualTo("x&y");
    assertThat(param.over(new java.util.Properties()).getProperty("password")).isEqualTo("x&y");
  }

  @Test
  void malformedUserInfo_isRefusedWithoutShowingIt() {
    assertThatThrownBy(
            () -> JdbcTarget.of("jdbc:postgresql://app:se%zzcret@db/x", "TASKQ_DATABASE_URL"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TASKQ_DATABASE_URL has a malformed percent escape in the password")
        .hasMessageNotContaining("se%zz");
    assertThatThrownBy(() -> JdbcTarget.of("jdbc:postgresql://:secret@db/x", "TASKQ_DATABASE_URL"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("user-info without a user name")
        .hasMessageNotContaining("secret");
  }

  @Test
  void thePassword_neverShows_withEveryLoggerAtTrace(TestServices services) throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String good = withUserInfo(services.jdbcUrl(), SECRET);
    // The refused start carries the secret as a parameter instead: it must not show either.
    String closed = services.jdbcUrl().replaceFirst("//([^/:?]+)(:\\d+)?", "//$1:" + closedPort);
    String unreachable = closed + (closed.contains("?") ? "&" : "?") + "password=" + SECRET;
    Path julConfig = Files.createTempFile("taskq-jul-", ".properties");
    Files.writeString(
        julConfig,
        """
        handlers=java.util.logging.ConsoleHandler
        .level=ALL
        java.util.logging.ConsoleHandler.level=ALL
        """);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=trace");
    command.add("-Djava.util.logging.config.file=" + julConfig);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(UrlSecretProgram.class.getName());
    command.add(services.schema() + "_url");
    command.add(good);
    command.add(unreachable);
    command.add(services.jdbcUrl());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    child.getOutputStream().close();
    byte[] out = child.getInputStream().readAllBytes();
    assertThat(child.waitFor(2, TimeUnit.MINUTES)).isTrue();
    Files.deleteIfExists(julConfig);
    String printed = new String(out, StandardCharsets.UTF_8);

    assertThat(printed)
        .as("the child's output")
        .contains("STARTED and ran a job as user postgres")
        .contains("REFUSED")
        .contains("cannot connect to the database in TASKQ_DATABASE_URL")
        .contains("DEBUG com.zaxxer.hikari") // the levels took effect
        .containsPattern("FINE(R|ST)?: ") // PgJDBC's own logging too
        .doesNotContain(SECRET);
    assertThat(child.exitValue()).as(printed).isZero();
  }

  /** The child JVM: a TaskQ on a URL with user-info, then one whose database does not answer. */
  public static final class UrlSecretProgram {
    private UrlSecretProgram() {}

    public static void main(String[] args) throws Exception {
      String schema = args[0];
      TaskQConfig good =
          TaskQConfig.builder()
              .schemaName(schema)
              .databaseUrl(args[1])
              .databaseDirectUrl(args[1])
              .pollInterval(Duration.ofMillis(200))
              .shutdownGrace(Duration.ofSeconds(2))
              .build();
      try (TaskQ taskq = TaskQ.builder().config(good).build()) {
        taskq.register(Actor.rawJson("echo", (json, ctx) -> json));
        taskq.start();
        long id = taskq.jobs().enqueue(JobRequest.of("echo", "{}"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (taskq.jobs().find(id).orElseThrow().status() != JobStatus.SUCCEEDED) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the job did not run");
          }
          Thread.sleep(50);
        }
        System.out.println("STARTED and ran a job as user postgres");
      } catch (Exception e) {
        print(e);
      }
      try (TaskQ taskq =
          TaskQ.builder()
              .config(
                  TaskQConfig.builder()
                      .schemaName(schema)
                      .databaseUrl(args[2])
                      .connectTimeout(Duration.ofSeconds(2))
                      .build())
              .build()) {
        taskq.register(Actor.rawJson("echo", (json, ctx) -> json));
        taskq.start();
        System.out.println("started against a closed port?");
      } catch (Exception e) {
        System.out.println("REFUSED");
        print(e);
      }
      dropSchema(args[3], schema);
    }

    private static void print(Throwable e) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      System.out.println(trace);
      for (Throwable t = e; t != null; t = t.getCause()) {
        System.out.println("cause: " + t);
      }
    }

    private static void dropSchema(String url, String schema) throws Exception {
      try (var c = java.sql.DriverManager.getConnection(url);
          var s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + SchemaName.of(schema).quoted() + " CASCADE");
      }
    }
  }
}
