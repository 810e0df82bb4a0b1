package io.taskq.postgres.internal;

import io.taskq.SchemaName;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Puts the schema into a SQL text (D7, R3): every {@code {schema}} becomes the quoted identifier,
 * written so that no name {@link SchemaName} accepts can change what the statement means.
 *
 * <p>A schema name may hold any character but the double quote, the colon and controls, so the
 * plain quoted identifier is not safe everywhere it can land. The text is read as PostgreSQL lexes
 * it, and the identifier is written for the context around each {@code {schema}}:
 *
 * <ul>
 *   <li>in code, as {@code "name"};
 *   <li>inside a string literal ({@code nextval('{schema}.seq')}), with every single quote doubled
 *       (and, in an {@code E'...'} literal, every backslash), so an apostrophe does not end it;
 *   <li>inside a dollar-quoted body ({@code $$ ... $$}, a function body), as in code, and the
 *       body's delimiters are renamed to a tag that occurs nowhere in the name ({@code $$} becomes
 *       {@code $_tq0$}, or {@code $_tq1$} when the name holds {@code _tq0$}, ...), so a {@code $$}
 *       in the name cannot close the body;
 *   <li>in a comment, left as {@code {schema}}: a name holding {@code *}{@code /} would end it.
 * </ul>
 *
 * The migration checksums are taken over the files as shipped, before this runs, so they do not
 * depend on the schema.
 */
final class SchemaSubstitution {
  private static final String PLACEHOLDER = "{schema}";

  private final String sql;
  private final String quoted;
  private final String tagSuffix;
  private final StringBuilder out;
  private int at;

  private SchemaSubstitution(String sql, SchemaName schema) {
    this.sql = sql;
    this.quoted = schema.quoted();
    this.tagSuffix = freeTagSuffix(schema.value());
    this.out = new StringBuilder(sql.length() + 64);
  }

  static String apply(String sql, SchemaName schema) {
    if (!sql.contains(PLACEHOLDER)) {
      return sql;
    }
    return new SchemaSubstitution(sql, schema).run();
  }

  /** {@code _tqN} with the smallest N such that {@code _tqN$} does not occur in the name. */
  private static String freeTagSuffix(String name) {
    for (int n = 0; ; n++) {
      String suffix = "_tq" + n;
      if (!name.contains(suffix + "$")) {
        return suffix;
      }
    }
  }

  private String run() {
    Deque<String> openBodies = new ArrayDeque<>();
    while (at < sql.length()) {
      char c = sql.charAt(at);
      if (sql.startsWith(PLACEHOLDER, at)) {
        out.append(quoted);
        at += PLACEHOLDER.length();
      } else if (c == '-' && sql.startsWith("--", at)) {
        copyUntilAfter("\n");
      } else if (c == '/' && sql.startsWith("/*", at)) {
        copyUntilAfter("*/");
      } else if (c == '"') {
        copyUntilAfter("\"", at + 1);
      } else if (c == '\'') {
        literal(isEscapeStringPrefix());
      } else if (c == '$' && !followsIdentifier()) {
        dollar(openBodies);
      } else {
        out.append(c);
        at++;
      }
    }
    return out.toString();
  }

  private boolean isEscapeStringPrefix() {
    if (at == 0) {
      return false;
    }
    char e = sql.charAt(at - 1);
    return (e == 'E' || e == 'e') && (at < 2 || !isIdentifierChar(sql.charAt(at - 2)));
  }

  private boolean followsIdentifier() {
    return at > 0 && isIdentifierChar(sql.charAt(at - 1));
  }

  private static boolean isIdentifierChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  /** A {@code $tag$} delimiter (renamed) or a parameter such as {@code $1} (copied). */
  private void dollar(Deque<String> openBodies) {
    int end = at + 1;
    while (end < sql.length() && isTagChar(sql.charAt(end), end == at + 1)) {
      end++;
    }
    if (end >= sql.length() || sql.charAt(end) != '$') {
      out.append('$');
      at++;
      return;
    }
    String tag = sql.substring(at + 1, end);
    if (tag.equals(openBodies.peek())) {
      openBodies.pop();
    } else {
      openBodies.push(tag);
    }
    out.append('$').append(tag).append(tagSuffix).append('$');
    at = end + 1;
  }

  private static boolean isTagChar(char c, boolean first) {
    return Character.isLetter(c) || c == '_' || (!first && Character.isDigit(c));
  }

  /** A string literal: {@code {schema}} inside is written as literal text. */
  private void literal(boolean escapeString) {
    String inLiteral = quoted.replace("'", "''");
    if (escapeString) {
      inLiteral = inLiteral.replace("\\", "\\\\");
    }
    out.append('\'');
    at++;
    while (at < sql.length()) {
      char c = sql.charAt(at);
      if (sql.startsWith(PLACEHOLDER, at)) {
        out.append(inLiteral);
        at += PLACEHOLDER.length();
      } else if (c == '\'' && sql.startsWith("''", at)) {
        out.append("''");
        at += 2;
      } else if (c == '\\' && escapeString && at + 1 < sql.length()) {
        out.append(c).append(sql.charAt(at + 1));
        at += 2;
      } else if (c == '\'') {
        out.append(c);
        at++;
        return;
      } else {
        out.append(c);
        at++;
      }
    }
  }

  private void copyUntilAfter(String end) {
    copyUntilAfter(end, at + end.length() == 1 ? at + 1 : at + 2);
  }

  /**
   * Copies from {@code at} through the next {@code end} found from {@code searchFrom}, verbatim.
   */
  private void copyUntilAfter(String end, int searchFrom) {
    int found = sql.indexOf(end, searchFrom);
    int stop = found < 0 ? sql.length() : found + end.length();
    out.append(sql, at, stop);
    at = stop;
  }
}
