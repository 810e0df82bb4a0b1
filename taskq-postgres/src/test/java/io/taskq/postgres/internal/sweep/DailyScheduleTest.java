package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("S11")
class DailyScheduleTest {
  private final DailySchedule prune = new DailySchedule(LocalTime.of(3, 0));

  private static Clock at(String instant) {
    // The clock's zone is deliberately not UTC: the schedule must ignore it.
    return Clock.fixed(Instant.parse(instant), ZoneId.of("America/St_Johns"));
  }

  @Test
  void beforeTheTime_runsTodayInUtc() {
    assertThat(prune.next(at("2026-03-10T02:59:59Z"))).isEqualTo("2026-03-10T03:00:00Z");
  }

  @Test
  void atOrAfterTheTime_runsTomorrow() {
    assertThat(prune.next(at("2026-03-10T03:00:00Z"))).isEqualTo("2026-03-11T03:00:00Z");
    assertThat(prune.next(at("2026-03-10T03:00:00.000001Z"))).isEqualTo("2026-03-11T03:00:00Z");
  }

  @Test
  void rollsOverMonthYearAndLeapDay() {
    assertThat(prune.next(at("2026-12-31T23:00:00Z"))).isEqualTo("2027-01-01T03:00:00Z");
    assertThat(prune.next(at("2028-02-28T04:00:00Z"))).isEqualTo("2028-02-29T03:00:00Z");
    assertThat(prune.next(at("2028-02-29T04:00:00Z"))).isEqualTo("2028-03-01T03:00:00Z");
  }

  @Test
  void aLocalDaylightSavingShiftChangesNothing_everyUtcDayHasOneRun() {
    // 2026-03-08 is the spring-forward day in North America; UTC has no such day.
    Instant first = prune.next(at("2026-03-07T12:00:00Z"));
    Instant second = prune.nextAfter(first);
    Instant third = prune.nextAfter(second);
    assertThat(first).isEqualTo("2026-03-08T03:00:00Z");
    assertThat(second).isEqualTo("2026-03-09T03:00:00Z");
    assertThat(third).isEqualTo("2026-03-10T03:00:00Z");
  }

  @Test
  void latestAtOrBefore_findsTheRunALeaderMissedAcrossAFailover() {
    assertThat(prune.latestAtOrBefore(Instant.parse("2026-03-10T03:30:00Z")))
        .isEqualTo("2026-03-10T03:00:00Z");
    assertThat(prune.latestAtOrBefore(Instant.parse("2026-03-10T03:00:00Z")))
        .isEqualTo("2026-03-10T03:00:00Z");
    assertThat(prune.latestAtOrBefore(Instant.parse("2026-03-01T02:00:00Z")))
        .isEqualTo("2026-02-28T03:00:00Z");
  }

  @Test
  void midnightIsAValidTime() {
    DailySchedule midnight = new DailySchedule(LocalTime.MIDNIGHT);
    assertThat(midnight.nextAfter(Instant.parse("2026-03-10T23:59:59Z")))
        .isEqualTo("2026-03-11T00:00:00Z");
    assertThat(midnight.timeUtc()).isEqualTo(LocalTime.MIDNIGHT);
  }

  @Test
  void refusesANullTime() {
    assertThatThrownBy(() -> new DailySchedule(nullTime()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("timeUtc");
  }

  @SuppressWarnings("NullAway")
  private static LocalTime nullTime() {
    return null;
  }
}
