package io.taskq.operations;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The database session holding the schema's maintenance-leader lock (M1), as PostgreSQL shows it.
 *
 * @param pid the leader's backend process id
 * @param applicationName the session's {@code application_name}, possibly empty
 * @param clientAddress the leader's address, {@code null} for a local socket or when hidden
 * @param since when that session connected
 */
public record LeaderInfo(
    int pid, String applicationName, @Nullable String clientAddress, @Nullable Instant since) {}
