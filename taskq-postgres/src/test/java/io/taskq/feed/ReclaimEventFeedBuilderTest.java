package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

@Tag("E1")
class ReclaimEventFeedBuilderTest {
  private final PGSimpleDataSource ds = new PGSimpleDataSource();
  private final ReclaimEventFeed.Builder builder =
      ReclaimEventFeed.builder(ds, SchemaName.of("taskq"));

  @Test
  void defaults_followTheGuide() {
    ReclaimEventFeed feed = builder.build();

    assertThat(feed.visibilityDelay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(feed.schema()).isEqualTo(SchemaName.of("taskq"));
  }

  @Test
  void fromConfig_takesTheVisibilityDelayAndSchema() {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName("jobs")
            .reclaimEventVisibilityDelay(Duration.ofMillis(700))
            .eventWriterStatementTimeout(Duration.ofMillis(600))
            .build();

    ReclaimEventFeed feed = ReclaimEventFeed.create(ds, config);

    assertThat(feed.visibilityDelay()).isEqualTo(Duration.ofMillis(700));
    assertThat(feed.schema()).isEqualTo(SchemaName.of("jobs"));
  }

  @Test
  void visibilityDelay_acceptsZeroAndAnHour_andRefusesOutside() {
    assertThat(builder.visibilityDelay(Duration.ZERO).build().visibilityDelay()).isZero();
    assertThat(builder.visibilityDelay(Duration.ofHours(1)).build().visibilityDelay())
        .isEqualTo(Duration.ofHours(1));

    assertThatThrownBy(() -> builder.visibilityDelay(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("visibilityDelay must be in [PT0S, PT1H], was PT-0.001S");
    assertThatThrownBy(() -> builder.visibilityDelay(Duration.ofHours(1).plusNanos(1)))
        .hasMessageStartingWith("visibilityDelay must be in [PT0S, PT1H], was PT1H0.000000001S");
  }

  @Test
  void everyOtherSetting_refusesItsOutOfRangeValue_namingIt() {
    assertThatThrownBy(() -> builder.pollInterval(Duration.ofMillis(9)))
        .hasMessage("pollInterval must be in [PT0.01S, PT1H], was PT0.009S");
    assertThatThrownBy(() -> builder.statementTimeout(Duration.ofMillis(999)))
        .hasMessage("statementTimeout must be in [PT1S, PT1H], was PT0.999S");
    assertThatThrownBy(() -> builder.watchPageSize(0))
        .hasMessage("watchPageSize must be in [1, 10000], was 0");
    assertThatThrownBy(() -> builder.watchPageSize(10_001))
        .hasMessage("watchPageSize must be in [1, 10000], was 10001");
    assertThatThrownBy(() -> builder.watchApplicationName(""))
        .hasMessage("watchApplicationName must be 1 to 63 printable ASCII characters, was ''");
    assertThatThrownBy(() -> builder.watchApplicationName("a".repeat(64)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.watchApplicationName("tab\there"))
        .hasMessage(
            "watchApplicationName must be 1 to 63 printable ASCII characters, was 'tab?here'");
    assertThatThrownBy(() -> builder.pollInterval(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("pollInterval");
  }

  @Test
  void missingArguments_areRefusedNamingThem() {
    assertThatThrownBy(() -> ReclaimEventFeed.builder(null, SchemaName.of("taskq")))
        .hasMessage("dataSource");
    assertThatThrownBy(() -> ReclaimEventFeed.builder(ds, null)).hasMessage("schema");
    ReclaimEventFeed feed = builder.build();
    assertThatThrownBy(() -> feed.pollReclaimEvents(null, 1)).hasMessage("cursor");
    assertThatThrownBy(() -> feed.watchReclaims(FeedCursor.beginning(), null))
        .hasMessage("consumer");
  }
}
