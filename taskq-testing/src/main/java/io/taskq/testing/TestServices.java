package io.taskq.testing;

import javax.sql.DataSource;

/**
 * What one test class gets: its own PostgreSQL schema, a pool on the test database, and a Redis key
 * prefix no other test class uses.
 *
 * @param schema the fresh schema's name (unquoted; created before the class, dropped after it)
 * @param dataSource a pooled data source whose sessions run in a deliberately non-UTC time zone
 * @param jdbcUrl the JDBC URL of the test database (credentials are passed separately, never here)
 * @param redisUri the URI of the test Redis
 * @param redisPrefix the key prefix owned by the class ({@code taskq:{schema}:}); its keys are
 *     deleted after the class
 */
public record TestServices(
    String schema, DataSource dataSource, String jdbcUrl, String redisUri, String redisPrefix) {}
