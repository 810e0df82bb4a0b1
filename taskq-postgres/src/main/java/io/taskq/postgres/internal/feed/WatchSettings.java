package io.taskq.postgres.internal.feed;

import java.time.Duration;
import javax.sql.DataSource;

/**
 * How a watch listens and polls.
 *
 * @param listenSource where the listen session comes from (a direct connection, D8)
 * @param quotedChannel the schema's events channel as a quoted identifier (M2)
 * @param applicationName the listen session's {@code application_name}
 * @param pollInterval the longest wait between polls without a notification (D11)
 * @param batchSize rows per poll
 */
public record WatchSettings(
    DataSource listenSource,
    String quotedChannel,
    String applicationName,
    Duration pollInterval,
    int batchSize) {}
