package io.taskq;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The runtime role's GRANTs, read from docs/operations.md so the test runs what the docs say. */
final class RuntimeRoleGrants {
  private static final Path DOC = Path.of("..", "docs", "operations.md");
  private static final String MARKER = "<!-- runtime-grants";

  private RuntimeRoleGrants() {}

  static List<String> statements(String schema, String role) {
    String doc;
    try {
      doc = Files.readString(DOC, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int start = doc.indexOf("```sql", doc.indexOf(MARKER)) + "```sql".length();
    String block = doc.substring(start, doc.indexOf("```", start));
    List<String> out = new ArrayList<>();
    for (String line : block.strip().lines().toList()) {
      String sql = line.strip();
      if (!sql.isEmpty()) {
        out.add(
            sql.replace(";", "")
                .replace("SCHEMA taskq ", "SCHEMA " + schema + " ")
                .replace("taskq_runtime", role));
      }
    }
    if (out.size() < 4) {
      throw new IllegalStateException("no runtime-grants block in " + DOC);
    }
    return out;
  }
}
