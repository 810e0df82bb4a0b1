package io.taskq.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonSyntaxTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "[]",
        "0",
        "-0.5e+10",
        "1E3",
        "\"text\"",
        "true",
        "false",
        "null",
        " { \"a\" : [1, 2.5, {\"b\": null}], \"c\": \"\\u00e9\\n\\\"\" } ",
        "{\"emoji\": \"\\ud83d\\ude00 \u00e9\"}"
      })
  void validDocuments_haveNoProblem(String json) {
    assertThat(JsonSyntax.problem(json)).isNull();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{                 | offset 1: unexpected end of input",
        "{\"a\" 1}         | offset 5: expected ':'",
        "{\"a\": 1,}       | offset 8: expected a string key",
        "[1 2]             | offset 3: expected ',' or ']'",
        "01                | offset 1: unexpected '1' after the JSON value",
        "1.                | offset 2: expected a digit after the decimal point",
        "tru               | offset 0: expected 'true'",
        "\"abc             | offset 4: unterminated string",
        "\"\\x\"           | offset 2: invalid escape sequence",
        "{} {}             | offset 3: unexpected '{' after the JSON value",
        "xyz               | offset 0: expected a JSON value but found"
      })
  void invalidDocuments_nameTheOffsetAndTheProblem(String json, String expected) {
    assertThat(JsonSyntax.problem(json.strip())).contains(expected);
  }

  @Test
  @Tag("F6")
  void nulEscape_isRejectedBecauseJsonbCannotStoreIt() {
    assertThat(JsonSyntax.problem("{\"a\": \"x\\u0000y\"}"))
        .contains("offset 9")
        .contains("\\u0000 (NUL)");
  }

  @ParameterizedTest
  @Tag("R3")
  @CsvSource(
      delimiter = '|',
      value = {
        "\"\\ud800\"              | offset 2: unpaired surrogate U+D800 (escape)",
        "\"\\udc00x\"             | offset 2: unpaired surrogate U+DC00 (escape)",
        "\"\\ud800\\u0041\"       | offset 2: unpaired surrogate U+D800 (escape)",
        "\"\\ud800\\ud800\"       | offset 2: unpaired surrogate U+D800 (escape)",
        "\"\\ud800\\n\"          | offset 2: unpaired surrogate U+D800 (escape)",
        "\"\\ud800\"              | jsonb stores only whole characters"
      })
  void escapedUnpairedSurrogate_isRejectedBecauseJsonbCannotStoreIt(String json, String expected) {
    assertThat(JsonSyntax.problem(json.strip())).contains(expected);
  }

  @Test
  @Tag("R3")
  void rawUnpairedSurrogate_isRejectedAndARawPairIsNot() {
    assertThat(JsonSyntax.problem("\"a\ud800\"")).contains("offset 2: unpaired surrogate U+D800");
    assertThat(JsonSyntax.problem("\"\udc00\"")).contains("unpaired surrogate U+DC00 (character)");
    assertThat(JsonSyntax.problem("\"\ud83d\"")).contains("unpaired surrogate U+D83D");
    assertThat(JsonSyntax.problem("\"\ud83d\ude00\"")).isNull();
    assertThat(JsonSyntax.problem("\"\\ud83d\\ude00\"")).isNull();
  }

  @Test
  void rawControlCharacterInAString_isRejected() {
    assertThat(JsonSyntax.problem("\"a\tb\"")).contains("unescaped control character U+0009");
  }

  @Test
  void nestingBeyondTheLimit_isRejectedWithoutOverflowingTheStack() {
    String deep = "[".repeat(JsonSyntax.MAX_DEPTH + 1) + "]".repeat(JsonSyntax.MAX_DEPTH + 1);
    String ok = "[".repeat(JsonSyntax.MAX_DEPTH) + "]".repeat(JsonSyntax.MAX_DEPTH);

    assertThat(JsonSyntax.problem(deep)).contains("nested deeper than " + JsonSyntax.MAX_DEPTH);
    assertThat(JsonSyntax.problem(ok)).isNull();
  }
}
