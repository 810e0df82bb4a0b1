package io.taskq.postgres.internal.maintenance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The binds of the {@code sweep_health} upsert ({@code sweep_health.sql}, "write"): one array per
 * column, one sweep per index, bound in the statement's order.
 */
final class SweepHealthColumns {
  private static final Map<String, String> CATALOG_IDS =
      Arrays.stream(SweepCatalog.values())
          .collect(Collectors.toMap(SweepCatalog::sweepName, SweepCatalog::id, (a, b) -> a));

  private final String[] names;
  private final String[] ids;
  private final String[] tiers;
  private final Integer[] sizes;
  private final Integer[] configured;
  private final Long[] runAges;
  private final Long[] successAges;
  private final Long[] errorAges;
  private final String[] errorClasses;
  private final String[] errorMessages;
  private final Integer[] failures;
  private final Boolean[] stalled;
  private final String[] reasons;
  private final Long[] expected;

  SweepHealthColumns(int n) {
    names = new String[n];
    ids = new String[n];
    tiers = new String[n];
    sizes = new Integer[n];
    configured = new Integer[n];
    runAges = new Long[n];
    successAges = new Long[n];
    errorAges = new Long[n];
    errorClasses = new String[n];
    errorMessages = new String[n];
    failures = new Integer[n];
    stalled = new Boolean[n];
    reasons = new String[n];
    expected = new Long[n];
  }

  /** Fills index {@code i} from {@code row}; a null {@code reason} means not stalled. */
  void set(
      int i, SweepHealthRow row, Instant now, @Nullable String reason, Duration expectedPeriod) {
    names[i] = row.name();
    ids[i] = CATALOG_IDS.get(row.name());
    tiers[i] = row.tier();
    sizes[i] = row.batchSize();
    configured[i] = row.configured();
    runAges[i] = ageMillis(now, row.lastRunAt());
    successAges[i] = ageMillis(now, row.lastSuccessAt());
    errorAges[i] = ageMillis(now, row.lastErrorAt());
    errorClasses[i] = row.errorClass();
    errorMessages[i] = row.errorMessage();
    failures[i] = row.consecutiveFailures();
    stalled[i] = reason != null;
    reasons[i] = reason;
    expected[i] = expectedPeriod.toMillis();
  }

  /** Binds the arrays from parameter {@code first} on. */
  void bind(Connection c, PreparedStatement ps, int first) throws SQLException {
    int p = first;
    ps.setArray(p++, c.createArrayOf("text", names));
    ps.setArray(p++, c.createArrayOf("text", ids));
    ps.setArray(p++, c.createArrayOf("text", tiers));
    ps.setArray(p++, c.createArrayOf("int4", sizes));
    ps.setArray(p++, c.createArrayOf("int4", configured));
    for (Long[] ages : List.of(runAges, successAges, errorAges)) {
      ps.setArray(p++, c.createArrayOf("int8", ages));
    }
    ps.setArray(p++, c.createArrayOf("text", errorClasses));
    ps.setArray(p++, c.createArrayOf("text", errorMessages));
    ps.setArray(p++, c.createArrayOf("int4", failures));
    ps.setArray(p++, c.createArrayOf("bool", stalled));
    ps.setArray(p++, c.createArrayOf("text", reasons));
    ps.setArray(p, c.createArrayOf("int8", expected));
  }

  private static @Nullable Long ageMillis(Instant now, @Nullable Instant at) {
    return at == null ? null : Math.max(0, Duration.between(at, now).toMillis());
  }
}
