package io.taskq.cli;

/** The documented exit codes of {@code taskq} (docs/cli.md). */
final class ExitCodes {
  /** The command did what it was asked. */
  static final int OK = 0;

  /** The database refused or failed a statement, or another unexpected error. */
  static final int FAILED = 1;

  /** Bad usage: an unknown option or command, a bad filter or value (picocli's own code). */
  static final int USAGE = 2;

  /** The job, queue or actor named does not exist, or a retry had nothing to act on. */
  static final int NOT_FOUND = 3;

  /** No database configured, or it cannot be reached. */
  static final int UNREACHABLE = 4;

  /** The schema is not current: {@code migrate --verify} found pending or foreign migrations. */
  static final int SCHEMA_NOT_CURRENT = 5;

  /**
   * Refused by the job's state: a discard of a running job (cancel it instead) or of one that has
   * ended.
   */
  static final int REFUSED = 6;

  private ExitCodes() {}
}
