package io.taskq.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The cron parser and its next-fire search, daylight-saving changes included (S12). */
@Tag("S12")
class CronExpressionTest {
  private static final ZoneId UTC = ZoneId.of("UTC");
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final ZoneId ST_JOHNS = ZoneId.of("America/St_Johns");

  private static Instant at(String offsetDateTime) {
    return OffsetDateTime.parse(offsetDateTime).toInstant();
  }

  /** The next {@code n} fire times after {@code from}, as offset date-times in {@code zone}. */
  private static List<String> fires(String cron, ZoneId zone, String from, int n) {
    CronExpression e = CronExpression.parse(cron);
    List<String> out = new ArrayList<>();
    Instant t = at(from);
    for (int i = 0; i < n; i++) {
      t = e.nextAfter(t, zone);
      out.add(t.atZone(zone).toOffsetDateTime().toString());
    }
    return out;
  }

  @Test
  void fiveFieldsFireOnTheMinute() {
    assertThat(fires("*/15 * * * *", UTC, "2026-01-01T10:07:30Z", 3))
        .containsExactly("2026-01-01T10:15Z", "2026-01-01T10:30Z", "2026-01-01T10:45Z");
  }

  @Test
  void sixFieldsHaveSeconds() {
    assertThat(fires("*/20 * * * * *", UTC, "2026-01-01T10:00:00Z", 3))
        .containsExactly("2026-01-01T10:00:20Z", "2026-01-01T10:00:40Z", "2026-01-01T10:01Z");
  }

  @Test
  void strictlyAfter() {
    assertThat(fires("0 12 * * *", UTC, "2026-01-01T12:00:00Z", 1))
        .containsExactly("2026-01-02T12:00Z");
    assertThat(fires("0 12 * * *", UTC, "2026-01-01T11:59:59.999Z", 1))
        .containsExactly("2026-01-01T12:00Z");
  }

  @Test
  void namesListsRangesAndSteps() {
    // Mondays to Fridays at 09:30 and 17:00, in March only.
    assertThat(fires("30 9,17 * mar mon-fri", UTC, "2026-02-27T00:00:00Z", 3))
        .containsExactly("2026-03-02T09:30Z", "2026-03-02T17:30Z", "2026-03-03T09:30Z");
    assertThat(fires("0 8-18/5 * * *", UTC, "2026-01-01T00:00:00Z", 3))
        .containsExactly("2026-01-01T08:00Z", "2026-01-01T13:00Z", "2026-01-01T18:00Z");
    assertThat(fires("0 0 * * 7", UTC, "2026-01-01T00:00:00Z", 1)) // 7 = Sunday
        .containsExactly("2026-01-04T00:00Z");
  }

  @Test
  void restrictedDayFieldsMatchEither() {
    // The 1st of the month or any Friday (Vixie cron semantics).
    assertThat(fires("0 0 1 * fri", UTC, "2026-01-01T00:00:00Z", 3))
        .containsExactly("2026-01-02T00:00Z", "2026-01-09T00:00Z", "2026-01-16T00:00Z");
    // A starred day-of-month: only the day of week counts.
    assertThat(fires("0 0 ? * fri", UTC, "2026-01-01T00:00:00Z", 1))
        .containsExactly("2026-01-02T00:00Z");
  }

  @Test
  void leapDayAndShorthands() {
    assertThat(fires("0 0 29 2 *", UTC, "2026-01-01T00:00:00Z", 2))
        .containsExactly("2028-02-29T00:00Z", "2032-02-29T00:00Z");
    assertThat(fires("@hourly", UTC, "2026-01-01T00:30:00Z", 1))
        .containsExactly("2026-01-01T01:00Z");
    assertThat(fires("@daily", UTC, "2026-01-01T00:30:00Z", 1))
        .containsExactly("2026-01-02T00:00Z");
    assertThat(fires("@weekly", UTC, "2026-01-01T00:30:00Z", 1))
        .containsExactly("2026-01-04T00:00Z");
  }

  @Test
  void timeZoneIsTheWallClock() {
    assertThat(fires("0 9 * * *", ZoneId.of("Asia/Kolkata"), "2026-01-01T00:00:00Z", 1))
        .containsExactly("2026-01-01T09:00+05:30");
  }

  @Test
  void berlinSpringForwardFiresTheSkippedTimeOnceWhenTheGapEnds() {
    // 2026-03-29: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist that night.
    assertThat(fires("30 2 * * *", BERLIN, "2026-03-28T12:00:00+01:00", 3))
        .containsExactly(
            "2026-03-29T03:00+02:00", "2026-03-30T02:30+02:00", "2026-03-31T02:30+02:00");
    // Four matches inside the gap collapse into one fire; 03:00 itself is that same fire.
    assertThat(fires("*/15 2-3 * * *", BERLIN, "2026-03-29T01:50:00+01:00", 3))
        .containsExactly(
            "2026-03-29T03:00+02:00", "2026-03-29T03:15+02:00", "2026-03-29T03:30+02:00");
  }

  @Test
  void berlinFallBackFiresAFixedTimeOnce() {
    // 2026-10-25: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice.
    assertThat(fires("30 2 * * *", BERLIN, "2026-10-24T12:00:00+02:00", 3))
        .containsExactly(
            "2026-10-25T02:30+02:00", "2026-10-26T02:30+01:00", "2026-10-27T02:30+01:00");
  }

  @Test
  void berlinFallBackKeepsAnHourlyScheduleGoingThroughBothPasses() {
    assertThat(fires("*/30 * * * *", BERLIN, "2026-10-25T01:45:00+02:00", 6))
        .containsExactly(
            "2026-10-25T02:00+02:00",
            "2026-10-25T02:30+02:00",
            "2026-10-25T02:00+01:00",
            "2026-10-25T02:30+01:00",
            "2026-10-25T03:00+01:00",
            "2026-10-25T03:30+01:00");
    // From inside the second pass, the first pass is not fired again.
    assertThat(fires("*/30 * * * *", BERLIN, "2026-10-25T02:10:00+01:00", 1))
        .containsExactly("2026-10-25T02:30+01:00");
  }

  @Test
  void stJohnsHalfHourZoneSpringForwardAndFallBack() {
    // 2026-03-08: 02:00 NST (-03:30) jumps to 03:00 NDT (-02:30).
    assertThat(fires("30 2 * * *", ST_JOHNS, "2026-03-07T12:00:00-03:30", 2))
        .containsExactly("2026-03-08T03:00-02:30", "2026-03-09T02:30-02:30");
    // 2026-11-01: 02:00 NDT falls back to 01:00 NST; 01:30 happens twice, fires once.
    assertThat(fires("30 1 * * *", ST_JOHNS, "2026-10-31T12:00:00-02:30", 2))
        .containsExactly("2026-11-01T01:30-02:30", "2026-11-02T01:30-03:30");
    assertThat(fires("0 * * * *", ST_JOHNS, "2026-11-01T00:30:00-02:30", 3))
        .containsExactly(
            "2026-11-01T01:00-02:30", "2026-11-01T01:00-03:30", "2026-11-01T02:00-03:30");
  }

  @Test
  void everyFireIsStrictlyLaterThanTheLast() {
    CronExpression e = CronExpression.parse("*/7 * * * *");
    for (ZoneId zone : List.of(BERLIN, ST_JOHNS, UTC)) {
      Instant t = LocalDateTime.of(2026, 1, 1, 0, 0).toInstant(ZoneOffset.UTC);
      for (int i = 0; i < 80_000; i++) {
        Instant next = e.nextAfter(t, zone);
        assertThat(next).isAfter(t);
        t = next;
      }
    }
  }

  @Test
  void badExpressionsNameTheProblem() {
    assertThatThrownBy(() -> CronExpression.parse("* * * *"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has 4 fields");
    assertThatThrownBy(() -> CronExpression.parse("61 * * * *"))
        .hasMessageContaining("minute value 61 is out of range [0, 59]");
    assertThatThrownBy(() -> CronExpression.parse("0 0 L * *"))
        .hasMessageContaining("day-of-month")
        .hasMessageContaining("L, W and # are not supported");
    assertThatThrownBy(() -> CronExpression.parse("0 0 * foo *"))
        .hasMessageContaining("month value 'foo' is not a number or a name (JAN-DEC)");
    assertThatThrownBy(() -> CronExpression.parse("0 0 30 2 *"))
        .hasMessageContaining("never fires");
    assertThatThrownBy(() -> CronExpression.parse("0 5-2 * * *")).hasMessageContaining("backwards");
    assertThatThrownBy(() -> CronExpression.parse("*/0 * * * *"))
        .hasMessageContaining("step must be at least 1");
    assertThatThrownBy(() -> CronExpression.parse("0 0 * * *\0"))
        .hasMessageContaining("NUL character");
    assertThatThrownBy(() -> CronExpression.parse("@fortnightly"))
        .hasMessageContaining("unknown shorthand");
    assertThatThrownBy(() -> CronExpression.parse("? * * * *"))
        .hasMessageContaining("'?' is allowed only");
  }
}
