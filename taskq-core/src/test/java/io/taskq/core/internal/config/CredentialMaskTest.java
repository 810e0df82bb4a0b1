package io.taskq.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("T1")
class CredentialMaskTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://app:secret@db/prod | jdbc:postgresql://app:***@db/prod",
        "jdbc:postgresql://db/prod?user=app&password=secret | jdbc:postgresql://db/prod?user=app&password=***",
        "jdbc:postgresql://db/prod?PASSWORD=secret&ssl=true | jdbc:postgresql://db/prod?PASSWORD=***&ssl=true",
        "jdbc:postgresql://db/prod?sslpassword=secret | jdbc:postgresql://db/prod?sslpassword=***",
        "jdbc:postgresql://db/prod;password=secret | jdbc:postgresql://db/prod;password=***",
        "redis://:secret@cache:6379 | redis://:***@cache:6379",
        "redis://secret@cache:6379 | redis://***@cache:6379",
        "rediss://default:secret@cache | rediss://default:***@cache",
        "redis://cache?password=secret | redis://cache?password=***",
        "https://x/?token=secret#frag | https://x/?token=***#frag",
        "app:secret@db/prod | app:***@db/prod",
        "secret@db | ***@db",
        "jdbc:postgresql://app:p/a@ss:w@db/prod | jdbc:postgresql://app:***@db/prod",
        "jdbc:postgresql://app@db/prod | jdbc:postgresql://app@db/prod",
        "jdbc:postgresql://db/prod | jdbc:postgresql://db/prod",
        "redis://cache:6379/0 | redis://cache:6379/0"
      })
  void mask_hidesEveryPasswordAndNothingElse(String url, String masked) {
    assertThat(CredentialMask.mask(url)).isEqualTo(masked).doesNotContain("secret");
  }
}
