package io.taskq;

import javax.sql.DataSource;

/**
 * The project's tests in other packages reach the package-private factories of {@code io.taskq}
 * here (the feed, the index-usage tests): a client on a schema migrated by the test itself.
 */
public final class TestHandles {
  private TestHandles() {}

  /** A jobs client of {@code schema} with the knob catalog's defaults. */
  public static JobsClient jobs(DataSource dataSource, SchemaName schema) {
    return JobsClient.create(dataSource, schema);
  }
}
