package io.taskq.testing;

import java.util.Objects;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * What one test class gets: its own PostgreSQL schema, a pool on the test database, and a Redis key
 * prefix no other test class uses.
 *
 * <p>The pool does not put the schema on the {@code search_path}: code under test must qualify
 * every table with the schema, exactly as it must in production, so a forgotten qualification fails
 * here instead of in a user's database.
 *
 * <p>Redis is found only when {@link #redisUri()} is first called (P5): a test class that never
 * calls it runs without any Redis server, and leaves no keys to delete.
 */
public final class TestServices {
  private final String schema;
  private final DataSource dataSource;
  private final String jdbcUrl;
  private final Supplier<String> redis;
  private final String redisPrefix;
  private volatile @Nullable String redisUri;

  TestServices(
      String schema,
      DataSource dataSource,
      String jdbcUrl,
      Supplier<String> redis,
      String redisPrefix) {
    this.schema = schema;
    this.dataSource = dataSource;
    this.jdbcUrl = jdbcUrl;
    this.redis = redis;
    this.redisPrefix = redisPrefix;
  }

  /**
   * The fresh schema's name (unquoted: lower-case letters, digits and underscores; created before
   * the class, dropped with everything in it after the class).
   *
   * @return the schema's name, unquoted
   */
  public String schema() {
    return schema;
  }

  /**
   * A {@code HikariDataSource} on the test database whose sessions run in a deliberately non-UTC
   * time zone; closed after the class.
   *
   * @return the class's pool on the test database
   */
  public DataSource dataSource() {
    return dataSource;
  }

  /**
   * A JDBC URL of the test database that opens a connection on its own (it may carry the user and
   * password as parameters, so never log it unredacted); for code that needs a connection outside
   * the pool, such as a leader's dedicated lock connection.
   *
   * @return the test database's JDBC URL
   */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /**
   * The URI of the test Redis, found on the first call (the class fails then, naming what was
   * tried, when there is none). Every key under {@link #redisPrefix()} is deleted after the class.
   *
   * @return the test Redis's URI
   */
  public String redisUri() {
    String uri = redisUri;
    if (uri == null) {
      synchronized (this) {
        uri = redisUri;
        if (uri == null) {
          uri = Objects.requireNonNull(redis.get(), "redis");
          redisUri = uri;
        }
      }
    }
    return uri;
  }

  /**
   * The key prefix owned by the class, {@code taskq:{schema}:}, which is also the prefix of every
   * key TaskQ itself derives for this schema (M5). Asking for it does not need Redis.
   *
   * @return the key prefix {@code taskq:{schema}:}
   */
  public String redisPrefix() {
    return redisPrefix;
  }

  /** The Redis URI when a test asked for it, else null (then there are no keys to delete). */
  @Nullable String redisUriIfUsed() {
    return redisUri;
  }

  @Override
  public String toString() {
    return "TestServices{schema=" + schema + "}";
  }
}
