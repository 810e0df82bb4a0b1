package io.taskq;

import static io.taskq.JobStatus.CANCELLED;
import static io.taskq.JobStatus.CRASHED;
import static io.taskq.JobStatus.FAILED;
import static io.taskq.JobStatus.PENDING;
import static io.taskq.JobStatus.RUNNING;
import static io.taskq.JobStatus.SCHEDULED;
import static io.taskq.JobStatus.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("L1")
class JobStatusTest {
  /** The lifecycle table, written out independently of the implementation. */
  private static final Map<JobStatus, Set<JobStatus>> LEGAL = new EnumMap<>(JobStatus.class);

  static {
    LEGAL.put(SCHEDULED, EnumSet.of(PENDING, CANCELLED, FAILED));
    LEGAL.put(PENDING, EnumSet.of(RUNNING, SCHEDULED, CANCELLED, FAILED));
    LEGAL.put(RUNNING, EnumSet.of(PENDING, SCHEDULED, SUCCEEDED, FAILED, CRASHED, CANCELLED));
    LEGAL.put(SUCCEEDED, EnumSet.noneOf(JobStatus.class));
    LEGAL.put(FAILED, EnumSet.noneOf(JobStatus.class));
    LEGAL.put(CRASHED, EnumSet.noneOf(JobStatus.class));
    LEGAL.put(CANCELLED, EnumSet.noneOf(JobStatus.class));
  }

  static Stream<Arguments> everyPair() {
    List<Arguments> pairs = new ArrayList<>();
    for (JobStatus from : JobStatus.values()) {
      for (JobStatus to : JobStatus.values()) {
        pairs.add(Arguments.of(from, to, LEGAL.get(from).contains(to)));
      }
    }
    return pairs.stream();
  }

  @ParameterizedTest(name = "{0} -> {1} legal: {2}")
  @MethodSource("everyPair")
  void canTransitionTo_allowsExactlyTheLifecycleTable(JobStatus from, JobStatus to, boolean legal) {
    assertThat(from.canTransitionTo(to)).isEqualTo(legal);
  }

  @Test
  void theTableCoversAllFortyNinePairsAndThirteenAreLegal() {
    assertThat(everyPair()).hasSize(49);
    assertThat(LEGAL.values().stream().mapToInt(Set::size).sum()).isEqualTo(13);
  }

  @Test
  void exactlySucceededFailedCrashedAndCancelledAreTerminal() {
    assertThat(EnumSet.allOf(JobStatus.class).stream().filter(JobStatus::isTerminal))
        .containsExactlyInAnyOrder(SUCCEEDED, FAILED, CRASHED, CANCELLED);
  }

  @ParameterizedTest
  @EnumSource(
      value = JobStatus.class,
      names = {"SUCCEEDED", "FAILED", "CRASHED", "CANCELLED"})
  void terminalStatesNeverMove(JobStatus terminal) {
    for (JobStatus next : JobStatus.values()) {
      assertThat(terminal.canTransitionTo(next)).as("%s -> %s", terminal, next).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(JobStatus.class)
  void noStatusTransitionsToItself(JobStatus status) {
    assertThat(status.canTransitionTo(status)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(JobStatus.class)
  void dbValue_isTheLowerCaseNameAndRoundTripsThroughFromDb(JobStatus status) {
    assertThat(status.dbValue()).isEqualTo(status.name().toLowerCase(java.util.Locale.ROOT));
    assertThat(JobStatus.fromDb(status.dbValue())).isSameAs(status);
  }

  @Test
  void dbValues_matchTheStatusCheckConstraintOfTheSchema() {
    assertThat(Stream.of(JobStatus.values()).map(JobStatus::dbValue))
        .containsExactly(
            "scheduled", "pending", "running", "succeeded", "failed", "crashed", "cancelled");
  }

  @ParameterizedTest
  @ValueSource(strings = {"PENDING", "done", "", " pending"})
  void fromDb_rejectsAnUnknownValueNamingItAndTheAllowedOnes(String value) {
    assertThatThrownBy(() -> JobStatus.fromDb(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown job status '" + value + "'")
        .hasMessageContaining("scheduled, pending, running, succeeded, failed, crashed, cancelled");
  }
}
