package io.taskq.testing;

import javax.sql.DataSource;

/**
 * What one test class gets: its own PostgreSQL schema, a pool on the test database, and a Redis key
 * prefix no other test class uses.
 *
 * <p>The pool does not put the schema on the {@code search_path}: code under test must qualify
 * every table with the schema, exactly as it must in production, so a forgotten qualification fails
 * here instead of in a user's database.
 *
 * @param schema the fresh schema's name (unquoted, lower-case letters, digits and underscores;
 *     created before the class, dropped with everything in it after the class)
 * @param dataSource a {@code HikariDataSource} whose sessions run in a deliberately non-UTC time
 *     zone; closed after the class
 * @param jdbcUrl a JDBC URL of the test database that opens a connection on its own (it may carry
 *     the user and password as parameters, so never log it unredacted); for code that needs a
 *     connection outside the pool, such as a leader's dedicated lock connection
 * @param redisUri the URI of the test Redis
 * @param redisPrefix the key prefix owned by the class, {@code taskq:{schema}:}, which is also the
 *     prefix of every key TaskQ itself derives for this schema (M5); every key under it is deleted
 *     after the class
 */
public record TestServices(
    String schema, DataSource dataSource, String jdbcUrl, String redisUri, String redisPrefix) {}
