package io.taskq.postgres.internal;

import io.taskq.SchemaName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The named SQL statements of one {@code .sql} resource, with the schema substituted (D7).
 *
 * <p>A resource holds statements introduced by a {@code -- name: some_name} line; the text up to
 * the next such line (trailing semicolon dropped) is the statement. The only substitution is {@code
 * {schema}}, replaced by the validated, quoted schema identifier; everything else is a bind
 * parameter. Files are read once per store.
 */
public final class NamedStatements {
  private static final String MARKER = "-- name:";

  private final String resource;
  private final SchemaName schema;
  private final Map<String, String> statements;

  private NamedStatements(String resource, SchemaName schema, Map<String, String> statements) {
    this.resource = resource;
    this.schema = schema;
    this.statements = statements;
  }

  /**
   * Loads {@code resource} (a classpath path such as {@code io/taskq/postgres/sql/claim.sql}).
   *
   * @throws IllegalStateException when the resource is missing or holds no named statement
   */
  public static NamedStatements load(String resource, SchemaName schema) {
    String text = read(resource);
    Map<String, String> statements = new LinkedHashMap<>();
    String name = null;
    StringBuilder body = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (line.startsWith(MARKER)) {
        put(statements, resource, name, body, schema);
        name = line.substring(MARKER.length()).trim();
        body.setLength(0);
      } else if (name != null) {
        body.append(line).append('\n');
      }
    }
    put(statements, resource, name, body, schema);
    if (statements.isEmpty()) {
      throw new IllegalStateException(resource + " holds no '-- name:' statement");
    }
    return new NamedStatements(resource, schema, Map.copyOf(statements));
  }

  /** Reads a classpath resource as UTF-8 text. */
  public static String read(String resource) {
    ClassLoader loader = NamedStatements.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("SQL resource not found on the classpath: " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read SQL resource " + resource, e);
    }
  }

  /**
   * Replaces every {@code {schema}} with the quoted identifier, the only substitution, written for
   * where it lands (code, a string literal, a dollar-quoted body) so that no accepted schema name
   * can change the statement (R3): see {@link SchemaSubstitution}.
   */
  public static String substitute(String sql, SchemaName schema) {
    return SchemaSubstitution.apply(sql, schema);
  }

  private static void put(
      Map<String, String> into,
      String resource,
      @org.jspecify.annotations.Nullable String name,
      StringBuilder body,
      SchemaName schema) {
    if (name == null) {
      return;
    }
    String sql = body.toString().strip();
    if (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    if (name.isEmpty() || sql.isEmpty() || into.containsKey(name)) {
      throw new IllegalStateException(
          resource + ": statement '" + name + "' is unnamed, empty or defined twice");
    }
    into.put(name, substitute(sql, schema));
  }

  /** The schema substituted into these statements. */
  public SchemaName schema() {
    return schema;
  }

  /**
   * The statement called {@code name}.
   *
   * @throws IllegalArgumentException when the resource defines no such statement
   */
  public String get(String name) {
    String sql = statements.get(name);
    if (sql == null) {
      throw new IllegalArgumentException(resource + " defines no statement '" + name + "'");
    }
    return sql;
  }
}
