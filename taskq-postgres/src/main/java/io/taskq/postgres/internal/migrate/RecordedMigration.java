package io.taskq.postgres.internal.migrate;

/**
 * A row of {@code schema_migrations}: a migration a schema records as applied, which {@link
 * MigrationPlan} compares with the shipped files.
 *
 * @param version the migration's version
 * @param name the migration's name, without version and extension
 * @param checksum the SHA-256 of the file as it was applied
 */
record RecordedMigration(int version, String name, String checksum) {}
