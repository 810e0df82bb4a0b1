package io.taskq.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("T1")
class NearestNameTest {
  private static final List<String> KNOWN =
      List.of("TASKQ_SWEEP_INTERVAL", "TASKQ_POLL_INTERVAL", "TASKQ_LEASE_PERIOD");

  @Test
  void aTypo_findsTheNameItWasMeantToBe() {
    assertThat(NearestName.among("TASKQ_SWEEP_INTERVALL", KNOWN)).contains("TASKQ_SWEEP_INTERVAL");
    assertThat(NearestName.among("TASKQ_SWEP_INTERVAL", KNOWN)).contains("TASKQ_SWEEP_INTERVAL");
    assertThat(NearestName.among("taskq_lease_period", KNOWN)).contains("TASKQ_LEASE_PERIOD");
  }

  @Test
  void aNameFarFromEveryKnownOne_findsNothing() {
    assertThat(NearestName.among("TASKQ_FROBNICATE", KNOWN)).isEmpty();
  }

  @Test
  void aTie_goesToTheAlphabeticallyFirstName() {
    assertThat(NearestName.among("AB", List.of("AC", "AA"))).contains("AA");
  }

  @Test
  void distance_countsInsertionsDeletionsAndSubstitutions() {
    assertThat(NearestName.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(NearestName.distance("", "abc")).isEqualTo(3);
    assertThat(NearestName.distance("abc", "abc")).isZero();
  }
}
