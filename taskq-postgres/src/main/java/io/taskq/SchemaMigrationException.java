package io.taskq;

/**
 * The schema could not be brought to this TaskQ's version (U1).
 *
 * <p>Thrown when the database records a migration newer than the code knows (the code is older than
 * the schema: run a newer release), when a recorded checksum differs from the shipped file (a
 * shipped migration was edited), when a migration's SQL fails (its transaction rolled back; the
 * earlier migrations stay applied), or when the {@code migrate} lock could not be taken in time.
 * The message names the schema, the versions and the file.
 */
public final class SchemaMigrationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * A migration failure described by {@code message}.
   *
   * @param message what failed
   */
  public SchemaMigrationException(String message) {
    super(message);
  }

  /**
   * A migration failure described by {@code message}, caused by {@code cause}.
   *
   * @param message what failed
   * @param cause the underlying failure
   */
  public SchemaMigrationException(String message, Throwable cause) {
    super(message, cause);
  }
}
