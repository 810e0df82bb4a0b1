package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.TimeZone;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tests run with the JVM and every database session deliberately away from UTC (America/St_Johns, a
 * half-hour offset), so code that leans on a default zone instead of the database clock fails here
 * rather than in a user's deployment.
 */
@TaskQTest
@Tag("Q3")
class SessionTimeZoneTest {
  @Test
  void pooledSession_runsInTheDeliberatelyNonUtcZone(TestServices services) throws SQLException {
    try (Connection c = services.dataSource().getConnection()) {
      assertNotUtc(c);
    }
  }

  @Test
  void connectionFromTheJdbcUrl_runsInANonUtcZoneToo(TestServices services) throws SQLException {
    try (Connection c = DriverManager.getConnection(services.jdbcUrl())) {
      assertNotUtc(c);
    }
  }

  @Test
  void jvmDefaultZone_isNotUtc() {
    assertThat(TimeZone.getDefault().getID()).isEqualTo(TaskQTestExtension.SESSION_TIME_ZONE);
    assertThat(ZoneId.systemDefault().getRules().getOffset(Instant.now()))
        .isNotEqualTo(ZoneOffset.UTC);
  }

  private static void assertNotUtc(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT current_setting('TimeZone'), extract(timezone FROM now())::int")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1))
          .isEqualTo(TaskQTestExtension.SESSION_TIME_ZONE)
          .isNotIn("UTC", "Etc/UTC", "GMT", "Z");
      assertThat(rs.getInt(2)).as("UTC offset in seconds").isNotZero();
    }
  }
}
