package io.taskq.operations;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One migration a schema records as applied (A7).
 *
 * @param version the file's version number
 * @param name the file's name, e.g. {@code V001__jobs.sql}
 * @param checksum the SHA-256 recorded when it was applied
 * @param appliedAt when it was applied
 * @param checksumMatches whether the recorded checksum equals the file this TaskQ ships (false: the
 *     file changed since, or this TaskQ does not ship that version)
 */
public record AppliedMigration(
    int version,
    String name,
    String checksum,
    @Nullable Instant appliedAt,
    boolean checksumMatches) {}
