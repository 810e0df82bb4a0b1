package io.taskq.postgres.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A whole database of its own, created for one test and dropped after it.
 *
 * <p>For tests that need schema names other test runs might use too (a keyword such as {@code
 * user}): inside a private database no one else can collide with them.
 */
public final class ScratchDatabase implements AutoCloseable {
  private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/]*/)([^?]*)(\\?.*)?$");

  private final String adminUrl;
  private final String name;
  private final PGSimpleDataSource dataSource;

  private ScratchDatabase(String adminUrl, String name, String url) {
    this.adminUrl = adminUrl;
    this.name = name;
    this.dataSource = new PGSimpleDataSource();
    this.dataSource.setUrl(url);
  }

  /** Creates a fresh database on the server of {@code jdbcUrl}. */
  public static ScratchDatabase create(String jdbcUrl) throws SQLException {
    Matcher m = URL.matcher(jdbcUrl);
    if (!m.matches()) {
      throw new IllegalStateException("cannot derive a scratch database URL from the test URL");
    }
    String name = Db.uniqueName("taskq_scratch");
    String query = m.group(3) == null ? "" : m.group(3);
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return new ScratchDatabase(jdbcUrl, name, m.group(1) + name + query);
  }

  public DataSource dataSource() {
    return dataSource;
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }
}
