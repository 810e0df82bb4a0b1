package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("M3")
class SchemaNameTest {
  private static void assertRejected(String name, String problem) {
    assertThatThrownBy(() -> SchemaName.of(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid schema name '")
        .hasMessageContaining(problem);
    assertThat(SchemaName.problem(name)).contains(problem);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "taskq",
        "taskq_staging",
        "My-Schema",
        "a b",
        "user",
        "public",
        "pg",
        "pgx",
        "x_pg_",
        "Schéma 東京",
        "tâche_😀",
        " padded "
      })
  void acceptsOddButLegalNamesAsGiven(String name) {
    SchemaName schema = SchemaName.of(name);
    assertThat(schema.value()).isEqualTo(name);
    assertThat(schema.toString()).isEqualTo(name);
    assertThat(SchemaName.problem(name)).isNull();
  }

  @Test
  void acceptsExactlySixtyThreeBytesAsciiOrMultiByte() {
    String ascii = "a".repeat(63);
    String cjk = "東".repeat(21);
    assertThat(cjk.getBytes(StandardCharsets.UTF_8)).hasSize(63);
    assertThat(SchemaName.of(ascii).value()).isEqualTo(ascii);
    assertThat(SchemaName.of(cjk).value()).isEqualTo(cjk);
  }

  @Test
  void quoted_wrapsTheNameAsAnIdentifierKeepingCase() {
    assertThat(SchemaName.of("My-Schema").quoted()).isEqualTo("\"My-Schema\"");
    assertThat(SchemaName.of("a b").quoted()).isEqualTo("\"a b\"");
    assertThat(SchemaName.of("user").quoted()).isEqualTo("\"user\"");
  }

  @Test
  void rejectsAnEmptyName() {
    assertRejected("", "must not be empty");
  }

  @Test
  void rejectsSixtyFourAsciiBytes() {
    assertRejected("a".repeat(64), "is 64 bytes in UTF-8; PostgreSQL allows at most 63");
  }

  @Test
  void rejectsAMultiByteNameWithFewCharsButTooManyBytes() {
    String name = "é".repeat(32);
    assertThat(name).hasSize(32);
    assertRejected(name, "is 64 bytes in UTF-8");
    assertRejected("東".repeat(22), "is 66 bytes in UTF-8");
  }

  @Test
  void rejectsADoubleQuoteNamingItsIndex() {
    assertRejected("ab\"c", "must not contain a double quote (at index 2)");
  }

  @Test
  void rejectsNulShowingItVisiblyInTheMessage() {
    assertThatThrownBy(() -> SchemaName.of("a\0b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "invalid schema name 'a\\u0000b': must not contain control character U+0000 (at index"
                + " 1)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\tb", "a\nb", "a\rb", "a\u007fb", "a\u0085b", "a\u001bb"})
  void rejectsOtherControlCharacters(String name) {
    assertRejected(name, "must not contain control character U+");
    assertRejected(name, "(at index 1)");
  }

  @Test
  void rejectsAColonBecauseLockNamesAndKeysAreColonSeparated() {
    assertRejected("global:queue", "must not contain a colon");
    assertRejected("a:b", "(at index 1)");
  }

  @Test
  void rejectsUnpairedSurrogates() {
    assertRejected("a\uD800b", "unpaired surrogate U+D800 (at index 1)");
    assertRejected("ab\uDC00", "unpaired surrogate U+DC00 (at index 2)");
    assertRejected("ab\uD83D", "unpaired surrogate U+D83D (at index 2)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg_", "pg_catalog", "pg_taskq", "PG_taskq", "Pg_x", "pG_x"})
  void rejectsThePgPrefixInAnyCase(String name) {
    assertRejected(name, "the pg_ prefix is reserved for PostgreSQL's system schemas");
  }

  @Test
  void longBadNamesAreAbbreviatedInTheMessage() {
    String name = "x".repeat(200);
    assertThatThrownBy(() -> SchemaName.of(name))
        .hasMessageStartingWith("invalid schema name '" + "x".repeat(80) + "...'")
        .hasMessageContaining("is 200 bytes");
  }

  @Test
  void equalityFollowsTheExactValue() {
    assertThat(SchemaName.of("taskq"))
        .isEqualTo(SchemaName.of("taskq"))
        .hasSameHashCodeAs(SchemaName.of("taskq"))
        .isNotEqualTo(SchemaName.of("Taskq"))
        .isNotEqualTo("taskq");
  }
}
