package io.taskq.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("T1")
@net.jqwik.api.Tag("T1")
class SizeTextTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "1048576, 1048576",
    "1MiB, 1048576",
    "1mib, 1048576",
    "512KiB, 524288",
    "'512 KiB', 524288",
    "100B, 100",
    "2GiB, 2147483648",
    "0, 0"
  })
  void everyDocumentedForm_parses(String text, long bytes) throws BadValueException {
    assertThat(SizeText.parse(text)).isEqualTo(bytes);
  }

  @ParameterizedTest(name = "''{0}'' {1}")
  @CsvSource({
    "-1, must not be negative",
    "1MB, is not a size",
    "1.5MiB, is not a size",
    "'', is not a size",
    "MiB, is not a size",
    "99999999999999999999, is too large",
    "9999999999999GiB, is too large"
  })
  void aBadSize_isRefusedWithItsReason(String text, String reason) {
    assertThatThrownBy(() -> SizeText.parse(text))
        .isInstanceOf(BadValueException.class)
        .hasMessageStartingWith(reason);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0, 0",
    "1000, 1000",
    "1024, 1KiB",
    "1048576, 1MiB",
    "1073741824, 1GiB",
    "1536, 1536",
    "3072, 3KiB"
  })
  void format_writesTheLargestExactUnit(long bytes, String text) {
    assertThat(SizeText.format(bytes)).isEqualTo(text);
  }

  @Property
  void formatThenParse_givesTheSameSize(@ForAll @LongRange(min = 0, max = 1L << 50) long bytes)
      throws BadValueException {
    assertThat(SizeText.parse(SizeText.format(bytes))).isEqualTo(bytes);
  }
}
