package io.taskq.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DemoOutputTest {
  @Test
  void progressLine_showsCountsElapsedRateAndTimeLeft() {
    DemoReport.Counts counts = new DemoReport.Counts(2000, 1990, 1, 8, 61);

    String line = DemoProgress.line(counts, 5000, Duration.ofSeconds(4));

    assertThat(line)
        .startsWith("[################" + ".".repeat(24) + "] 2000/5000  40%")
        .contains("0:04 elapsed", " 500 jobs/s", "ETA 0:06", "8 claimed", "61 retries", "1 failed");
  }

  @Test
  void progressLine_hasNoEtaBeforeTheFirstSecondNorAfterTheLastJob() {
    DemoReport.Counts none = new DemoReport.Counts(3, 3, 0, 8, 0);
    DemoReport.Counts all = new DemoReport.Counts(5000, 5000, 0, 0, 0);

    assertThat(DemoProgress.line(none, 5000, Duration.ofMillis(200))).contains("ETA -:--");
    assertThat(DemoProgress.line(all, 5000, Duration.ofSeconds(7))).contains("ETA 0:00", "100%");
  }

  @Test
  void where_namesDatabaseAndServerButNeverUserOrPassword() {
    String url = "jdbc:postgresql://app:s3cret@db.internal:6432/orders?password=hunter2&ssl=true";

    assertThat(DemoDatabase.where(url))
        .isEqualTo("database orders on db.internal:6432")
        .doesNotContain("s3cret", "hunter2", "app");
  }

  @Test
  void theUrlTheDemoMakes_namesDatabaseTest() {
    assertThat(DemoDatabase.url(DemoDatabase.LOCAL_SERVER, DemoDatabase.DATABASE))
        .isEqualTo("jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
  }
}
