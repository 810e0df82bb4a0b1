package io.taskq.postgres.internal.migrate;

/**
 * One numbered migration file {@code V{NNN}__{name}.sql}.
 *
 * @param version the number in the file name; versions strictly increase through the index
 * @param name the part after {@code __}, without {@code .sql}
 * @param checksum lower-case hex SHA-256 of {@link #text()}
 * @param text the file's text with line endings normalised to {@code \n}, before substitution
 */
public record Migration(int version, String name, String checksum, String text) {
  /** The file name, {@code V001__jobs.sql}. */
  public String fileName() {
    return String.format(java.util.Locale.ROOT, "V%03d__%s.sql", version, name);
  }

  @Override
  public String toString() {
    return fileName();
  }
}
