package io.taskq.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/** M7 as a property: no valid schema and name can make a store name spell the local prefix. */
@Tag("M7")
@Tag("M5")
class ProcessLocalPrefixPropertiesTest {
  @Property
  void noStoreNameOfAnyValidSchemaStartsWithTheProcessLocalPrefix(
      @ForAll("schemaLike") String schema, @ForAll("nameLike") String name) {
    Assume.that(SchemaName.problem(schema) == null);
    SchemaName valid = SchemaName.of(schema);
    List<String> names = RedisKeysTest.allKeys(RedisKeys.of(valid), name);
    names.addAll(RedisKeysTest.allLocks(valid, name));
    assertThat(names).noneMatch(RedisKeys::isProcessLocal);
  }

  @Provide
  Arbitrary<String> schemaLike() {
    return Arbitraries.oneOf(
        Arbitraries.of("global", "global:queue", "taskq", "unique_for", "queue", "global:"),
        Arbitraries.strings().withChars("globaqueu:_tk").ofMinLength(1).ofMaxLength(20));
  }

  @Provide
  Arbitrary<String> nameLike() {
    return Arbitraries.oneOf(
        Arbitraries.of("queue", "queue:x", "global:queue:x", ":"),
        Arbitraries.strings().withChars("globaqueu:_tk").ofMinLength(1).ofMaxLength(20));
  }
}
