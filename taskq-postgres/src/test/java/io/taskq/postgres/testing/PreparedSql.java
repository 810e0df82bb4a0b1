package io.taskq.postgres.testing;

/** Turns a JDBC statement into SQL {@code PREPARE} text, for plan tests that EXPLAIN EXECUTE it. */
public final class PreparedSql {
  private PreparedSql() {}

  /**
   * {@code sql} as {@code PREPARE name (types) AS ...}, its {@code ?} binds numbered {@code $1},
   * {@code $2}, ... in order.
   */
  public static String prepare(String name, String types, String sql) {
    StringBuilder numbered = new StringBuilder();
    int n = 0;
    for (int i = 0; i < sql.length(); i++) {
      char ch = sql.charAt(i);
      if (ch == '?') {
        numbered.append('$').append(++n);
      } else {
        numbered.append(ch);
      }
    }
    return "PREPARE " + name + " (" + types + ") AS " + numbered;
  }
}
