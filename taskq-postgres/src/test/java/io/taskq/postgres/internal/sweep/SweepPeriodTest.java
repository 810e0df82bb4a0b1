package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SweepPeriodTest {
  @Test
  void bindsWholeMicroseconds() {
    assertThat(SweepPeriod.positive("K", Duration.ofSeconds(2, 3_456_789)).micros())
        .isEqualTo(2_003_456L);
    assertThat(SweepPeriod.positive("K", SweepPeriod.MAX).micros())
        .isEqualTo(36_500L * 86_400 * 1_000_000);
  }

  @Test
  void zeroDisablesWhereTheKnobAllowsIt_andIsRefusedWhereItDoesNot() {
    assertThat(SweepPeriod.zeroDisables("TASKQ_X", Duration.ZERO).disabled()).isTrue();
    assertThat(SweepPeriod.zeroDisables("TASKQ_X", Duration.ofSeconds(1)).disabled()).isFalse();
    assertThatThrownBy(() -> SweepPeriod.positive("TASKQ_Y", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TASKQ_Y must be above zero and at most 36500 days, was PT0S");
  }

  @Test
  void refusesNegativeAndOverlongPeriods_namingTheKnob() {
    assertThatThrownBy(() -> SweepPeriod.zeroDisables("TASKQ_X", Duration.ofMillis(-1)))
        .hasMessage("TASKQ_X must be between 0 and 36500 days, was PT-0.001S");
    assertThatThrownBy(() -> SweepPeriod.positive("TASKQ_X", SweepPeriod.MAX.plusNanos(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TASKQ_X must be between 0 and 36500 days");
  }
}
