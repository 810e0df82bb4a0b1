package io.taskq.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("T1")
@net.jqwik.api.Tag("T1")
class DurationTextTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "500ms, PT0.5S",
    "30s, PT30S",
    "5m, PT5M",
    "2h, PT2H",
    "7d, PT168H",
    "1h30m, PT1H30M",
    "1d2h3m4s5ms, PT26H3M4.005S",
    "PT30S, PT30S",
    "pt30s, PT30S",
    "P7D, PT168H",
    "P1DT12H, PT36H",
    "PT0.25S, PT0.25S",
    "'  45s ', PT45S",
    "0, PT0S",
    "0ms, PT0S",
    "90, PT1M30S"
  })
  void everyDocumentedForm_parses(String text, String iso) throws BadValueException {
    assertThat(DurationText.parse(text, ChronoUnit.SECONDS)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"1750, PT1.75S", "2000, PT2S", "1s, PT1S"})
  void aBareNumber_countsInTheKnobsUnit(String text, String iso) throws BadValueException {
    assertThat(DurationText.parse(text, ChronoUnit.MILLIS)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest(name = "''{0}'' {1}")
  @CsvSource({
    "-5s, must not be negative",
    "-1, must not be negative",
    "PT-5S, must not be negative",
    "-PT5S, must not be negative",
    "'', is empty",
    "'   ', is empty",
    "5M, is not a duration",
    "5 s, is not a duration",
    "1.5s, is not a duration",
    "1.5, is not a duration",
    "s, is not a duration",
    "P1Y, is not a duration",
    "P, is not a duration",
    "30m1h, lists its units out of order",
    "1m1m, lists its units out of order",
    "99999999999999999999, is too large",
    "9223372036854775807d, is too large",
    "106751991167301d, is too large"
  })
  void aBadDuration_isRefusedWithItsReason(String text, String reason) {
    assertThatThrownBy(() -> DurationText.parse(text, ChronoUnit.SECONDS))
        .isInstanceOf(BadValueException.class)
        .hasMessageStartingWith(reason);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "PT0S, 0s",
    "PT0.5S, 500ms",
    "PT1.75S, 1750ms",
    "PT2S, 2s",
    "PT90S, 90s",
    "PT10M, 10m",
    "PT1H, 1h",
    "PT25H, 25h",
    "PT168H, 7d",
    "PT0.000001S, PT0.000001S",
    "PT-5S, PT-5S"
  })
  void format_writesTheShortestExactForm(String iso, String text) {
    assertThat(DurationText.format(Duration.parse(iso))).isEqualTo(text);
  }

  @Property
  void formatThenParse_givesTheSameDuration(@ForAll("durations") Duration d)
      throws BadValueException {
    assertThat(DurationText.parse(DurationText.format(d), ChronoUnit.SECONDS)).isEqualTo(d);
    assertThat(DurationText.parse(DurationText.format(d), ChronoUnit.MILLIS)).isEqualTo(d);
  }

  @Property
  void isoText_parsesToItsDuration(@ForAll("durations") Duration d) throws BadValueException {
    assertThat(DurationText.parse(d.toString(), ChronoUnit.SECONDS)).isEqualTo(d);
  }

  @Property
  void aNumberWithAUnit_isThatManyUnits(
      @ForAll @LongRange(min = 0, max = 1_000_000_000L) long n, @ForAll("units") String unit)
      throws BadValueException {
    Duration expected =
        switch (unit) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
    assertThat(DurationText.parse(n + unit, ChronoUnit.MILLIS)).isEqualTo(expected);
  }

  @Property
  void aBareNumber_isThatManyBareUnits(@ForAll @LongRange(min = 0, max = 1_000_000_000L) long n)
      throws BadValueException {
    assertThat(DurationText.parse(Long.toString(n), ChronoUnit.SECONDS))
        .isEqualTo(Duration.ofSeconds(n));
    assertThat(DurationText.parse(Long.toString(n), ChronoUnit.MILLIS))
        .isEqualTo(Duration.ofMillis(n));
  }

  @Property
  void aNegativeDuration_isAlwaysRefused(@ForAll("durations") Duration d) {
    Duration negative = d.isZero() ? Duration.ofNanos(-1) : d.negated();
    assertThatThrownBy(() -> DurationText.parse(negative.toString(), ChronoUnit.SECONDS))
        .hasMessage("must not be negative");
    assertThatThrownBy(() -> DurationText.parse("-" + DurationText.format(d), ChronoUnit.SECONDS))
        .hasMessage("must not be negative");
  }

  @Provide
  Arbitrary<Duration> durations() {
    Arbitrary<Long> seconds = Arbitraries.longs().between(0, 400L * 365 * 86_400);
    Arbitrary<Integer> nanos =
        Arbitraries.oneOf(
            Arbitraries.just(0),
            Arbitraries.integers().between(0, 999).map(ms -> ms * 1_000_000),
            Arbitraries.integers().between(0, 999_999_999));
    Arbitrary<Long> units =
        Arbitraries.of(1L, 60L, 3600L, 86_400L)
            .flatMap(u -> Arbitraries.longs().between(0, 1_000_000).map(n -> n * u));
    return Arbitraries.oneOf(seconds, units).flatMap(s -> nanos.map(n -> Duration.ofSeconds(s, n)));
  }

  @Provide
  Arbitrary<String> units() {
    return Arbitraries.of("ms", "s", "m", "h", "d");
  }
}
