package io.taskq.postgres.internal.migrate;

import io.taskq.postgres.internal.NamedStatements;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ordered migration files named by a {@code migrations.txt} index resource.
 *
 * <p>The index exists because listing a classpath directory is unreliable inside a jar. Each
 * non-comment line names one file {@code V{NNN}__{name}.sql} in the same resource directory;
 * versions must strictly increase down the file, so the order a reader sees is the order applied.
 */
public final class MigrationIndex {
  /** Where the jar carries the files of the repository's {@code sql/} directory. */
  public static final String BUILT_IN = "io/taskq/postgres/migrations";

  private static final Pattern FILE = Pattern.compile("V(\\d{3,9})__([A-Za-z0-9_]+)\\.sql");

  private final String directory;
  private final List<Migration> migrations;

  private MigrationIndex(String directory, List<Migration> migrations) {
    this.directory = directory;
    this.migrations = migrations;
  }

  /** The migrations shipped with this TaskQ. */
  public static MigrationIndex builtIn() {
    return BuiltIn.INDEX;
  }

  /**
   * Reads {@code directory/migrations.txt} and every file it names.
   *
   * @throws IllegalStateException naming the index line when a name is malformed, out of order or
   *     its file is missing
   */
  public static MigrationIndex load(String directory) {
    String index = directory + "/migrations.txt";
    List<Migration> found = new ArrayList<>();
    String[] lines = NamedStatements.read(index).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      found.add(migration(directory, index + " line " + (i + 1), line, found));
    }
    if (found.isEmpty()) {
      throw new IllegalStateException(index + " names no migration");
    }
    return new MigrationIndex(directory, List.copyOf(found));
  }

  /**
   * The migration an index line names, read from {@code directory}.
   *
   * @param where the index and line, named in errors
   * @param before the migrations of the lines before it, in order
   */
  private static Migration migration(
      String directory, String where, String line, List<Migration> before) {
    Matcher m = FILE.matcher(line);
    if (!m.matches()) {
      throw new IllegalStateException(where + ": '" + line + "' is not named V{NNN}__{name}.sql");
    }
    int version = Integer.parseInt(m.group(1));
    if (!before.isEmpty() && version <= before.get(before.size() - 1).version()) {
      throw new IllegalStateException(
          where + ": version " + version + " does not follow the previous");
    }
    String text = normalise(NamedStatements.read(directory + "/" + line));
    return new Migration(version, m.group(2), sha256(text), text);
  }

  /** Every migration, in version order. */
  public List<Migration> migrations() {
    return migrations;
  }

  /** The highest version this code knows. */
  public int latestVersion() {
    return migrations.get(migrations.size() - 1).version();
  }

  /** The resource directory the files came from. */
  public String directory() {
    return directory;
  }

  /** Line endings become {@code \n}, so a checkout with CRLF keeps the checksums. */
  static String normalise(String text) {
    return text.replace("\r\n", "\n");
  }

  static String sha256(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  /** Loaded on first use, once per class loader. */
  private static final class BuiltIn {
    static final MigrationIndex INDEX = load(BUILT_IN);
  }
}
