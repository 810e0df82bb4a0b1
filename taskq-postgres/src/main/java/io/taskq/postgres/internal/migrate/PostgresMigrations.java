package io.taskq.postgres.internal.migrate;

import io.taskq.SchemaName;
import io.taskq.operations.SchemaMigrations;
import io.taskq.operations.SchemaStatus;
import java.util.List;
import javax.sql.DataSource;

/** {@link SchemaMigrations} over {@link Migrations} for one schema (A7). */
public final class PostgresMigrations implements SchemaMigrations {
  private final DataSource dataSource;
  private final SchemaName schema;

  public PostgresMigrations(DataSource dataSource, SchemaName schema) {
    this.dataSource = dataSource;
    this.schema = schema;
  }

  @Override
  public List<String> apply() {
    return Migrations.apply(dataSource, schema).stream().map(Migration::fileName).toList();
  }

  @Override
  public SchemaStatus verify() {
    return Migrations.verify(dataSource, schema);
  }

  @Override
  public SchemaStatus status() {
    return Migrations.status(dataSource, schema);
  }
}
