package io.taskq.operations;

import java.util.List;

/**
 * The schema's migrations as a public operation (A7): a handle from the TaskQ root ({@code
 * taskq.migrations()}), and what {@code TASKQ_MIGRATE} does at start ({@code apply}, {@code verify}
 * or {@code skip}). {@link #verify()} and {@link #status()} only read, so they need no CREATE
 * privilege; {@link #apply()} needs it only when something is pending. {@code docs/operations.md}
 * lists the GRANTs of a runtime role.
 */
public interface SchemaMigrations {
  /**
   * Applies what is pending, each file in its own transaction, under the {@code
   * taskq:migrate:{schema}} lock (creating the schema when missing).
   *
   * @return the file names applied now, in order; empty when the schema was current
   * @throws io.taskq.SchemaMigrationException when the schema is newer than this TaskQ, a recorded
   *     checksum differs, or a migration fails
   */
  List<String> apply();

  /**
   * Checks the schema is current, changing nothing.
   *
   * @return its status, current
   * @throws io.taskq.SchemaMigrationException naming what is pending, foreign or changed
   */
  SchemaStatus verify();

  /** {@return what the schema records and what is pending, changing nothing} */
  SchemaStatus status();
}
