package io.taskq.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** R3: the schema is written for where it lands, so no accepted name changes the statement. */
@Tag("R3")
class SchemaSubstitutionTest {
  private static String sub(String sql, String schema) {
    return NamedStatements.substitute(sql, SchemaName.of(schema));
  }

  @Test
  void inCode_itIsTheQuotedIdentifier() {
    assertThat(sub("SELECT * FROM {schema}.jobs WHERE a = $1", "a$$b"))
        .isEqualTo("SELECT * FROM \"a$$b\".jobs WHERE a = $1");
  }

  @Test
  void inAStringLiteral_singleQuotesAreDoubled() {
    assertThat(sub("SELECT nextval('{schema}.seq'), 'it''s'", "it's"))
        .isEqualTo("SELECT nextval('\"it''s\".seq'), 'it''s'");
    assertThat(sub("SELECT E'{schema}\\n'", "a\\'b")).isEqualTo("SELECT E'\"a\\\\''b\"\\n'");
  }

  @Test
  void aDollarQuotedBody_getsATagTheNameDoesNotHold() {
    String fn = "CREATE FUNCTION f() AS $$ SELECT 1 FROM {schema}.t $$; SELECT $x$ {schema} $x$";
    assertThat(sub(fn, "a$$b"))
        .isEqualTo(
            "CREATE FUNCTION f() AS $_tq0$ SELECT 1 FROM \"a$$b\".t $_tq0$;"
                + " SELECT $x_tq0$ \"a$$b\" $x_tq0$");
    assertThat(sub(fn, "a$_tq0$b")).contains("AS $_tq1$ SELECT 1 FROM \"a$_tq0$b\".t $_tq1$;");
  }

  @Test
  void inAComment_itIsLeftAlone() {
    assertThat(sub("-- the schema's {schema}\nSELECT {schema} /* {schema} */", "a*/b"))
        .isEqualTo("-- the schema's {schema}\nSELECT \"a*/b\" /* {schema} */");
  }

  @Test
  void textWithoutThePlaceholder_isUnchanged() {
    assertThat(sub("SELECT $$x$$", "s")).isEqualTo("SELECT $$x$$");
  }
}
