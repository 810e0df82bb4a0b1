package io.taskq;

import static io.taskq.TaskQConfigErrorsTest.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** D6: passwords never reach toString, describe() or an error message. */
@Tag("T1")
class TaskQConfigSecretsTest {
  private static final Map<String, String> ENV =
      Map.of(
          "TASKQ_DATABASE_URL",
          "jdbc:postgresql://app:hunter1@db:5432/prod?password=hunter2&sslpassword=hunter3",
          "TASKQ_DATABASE_DIRECT_URL",
          "jdbc:postgresql://direct/prod?user=app&password=hunter4",
          "TASKQ_DATABASE_PASSWORD",
          "hunter5",
          "TASKQ_REDIS_URL",
          "redis://:hunter6@cache:6379/0");

  @Test
  void toString_masksEveryPassword() {
    TaskQConfig config = TaskQConfig.fromEnv(ENV);

    assertThat(config.toString())
        .doesNotContain("hunter")
        .contains("databaseUrl=jdbc:postgresql://app:***@db:5432/prod?password=***&sslpassword=***")
        .contains("databaseDirectUrl=jdbc:postgresql://direct/prod?user=app&password=***")
        .contains("databasePassword=***")
        .contains("redisUrl=redis://:***@cache:6379/0");
  }

  @Test
  void describe_masksEveryPassword() {
    TaskQConfig config = TaskQConfig.fromEnv(ENV);

    assertThat(String.join("\n", config.describe()))
        .doesNotContain("hunter")
        .contains("TASKQ_DATABASE_PASSWORD=*** (from the environment)");
  }

  @Test
  void theAccessors_stillReturnTheRealValues() {
    TaskQConfig config = TaskQConfig.fromEnv(ENV);

    assertThat(config.databasePassword()).contains("hunter5");
    assertThat(config.redisUrl()).contains("redis://:hunter6@cache:6379/0");
  }

  @Test
  void anUnsetPassword_showsAsUnset() {
    assertThat(TaskQConfig.defaults().toString()).contains("databasePassword=unset");
  }

  @Test
  void aRedisPasswordWithoutUser_isMasked() {
    TaskQConfig config = TaskQConfig.builder().redisUrl("redis://hunter7@cache").build();

    assertThat(config.toString()).contains("redisUrl=redis://***@cache").doesNotContain("hunter");
  }

  @Test
  void aBadUrl_isShownMaskedInTheError() {
    TaskQConfigException e =
        rejected(
            Map.of(
                "TASKQ_DATABASE_URL", "postgres://app:hunter1@db/prod",
                "TASKQ_DATABASE_DIRECT_URL", "db/prod?password=hunter2",
                "TASKQ_REDIS_URL", "http://:hunter3@cache"));

    assertThat(e.getMessage())
        .doesNotContain("hunter")
        .contains("TASKQ_DATABASE_URL='postgres://app:***@db/prod' (from the environment)")
        .contains("TASKQ_DATABASE_DIRECT_URL='db/prod?password=***'")
        .contains("TASKQ_REDIS_URL='http://:***@cache'");
    assertThat(e.problems()).allSatisfy(p -> assertThat(p.message()).doesNotContain("hunter"));
  }

  @Test
  void aBadUrlSetInCode_isShownMaskedInTheError() {
    TaskQConfigException e =
        rejected(TaskQConfig.builder().databaseUrl("jdbc:mysql://app:hunter1@db/prod"));

    assertThat(e.getMessage())
        .doesNotContain("hunter")
        .contains(
            "TASKQ_DATABASE_URL='jdbc:mysql://app:***@db/prod' (set in code via databaseUrl())");
  }

  @Test
  void aMisspeltPasswordVariable_isNamedButItsValueIsNot() {
    TaskQConfigException e = rejected(Map.of("TASKQ_DATABSE_PASSWORD", "hunter1"));

    assertThat(e.getMessage())
        .doesNotContain("hunter")
        .contains("TASKQ_DATABSE_PASSWORD (from the environment) is not a TaskQ variable")
        .contains("did you mean TASKQ_DATABASE_PASSWORD?");
  }

  @Test
  void otherErrors_doNotBringThePasswordsAlong() {
    Map<String, String> env = new java.util.HashMap<>(ENV);
    env.put("TASKQ_HTTP_PORT", "-1");

    TaskQConfigException e = rejected(env);

    assertThat(e.getMessage()).doesNotContain("hunter").contains("TASKQ_HTTP_PORT='-1'");
  }
}
