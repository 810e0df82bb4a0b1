package io.taskq.benchmarks;

import io.taskq.testing.ForwardingDataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Counts the statements executed on the connections it hands out, for "statements per batch".
 * Commits and rollbacks are not counted: they are not statements the code chose to send.
 */
final class CountingDataSource extends ForwardingDataSource {
  private static final Set<String> EXECUTIONS =
      Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch");

  private final AtomicLong executed = new AtomicLong();

  CountingDataSource(DataSource target) {
    super(target);
  }

  /** Statements executed so far. */
  long executed() {
    return executed.get();
  }

  @Override
  public Connection getConnection() throws SQLException {
    return connection(target.getConnection());
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return connection(target.getConnection(user, password));
  }

  private Connection connection(Connection c) {
    return proxy(
        Connection.class,
        (proxy, method, args) -> {
          Object result = invoke(c, method, args);
          if (result instanceof PreparedStatement ps) {
            return statement(PreparedStatement.class, ps);
          }
          if (result instanceof Statement s) {
            return statement(Statement.class, s);
          }
          return result;
        });
  }

  private <T extends Statement> T statement(Class<T> type, T s) {
    return proxy(
        type,
        (proxy, method, args) -> {
          if (EXECUTIONS.contains(method.getName())) {
            executed.incrementAndGet();
          }
          return invoke(s, method, args);
        });
  }

  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return type.cast(
        Proxy.newProxyInstance(
            CountingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static @Nullable Object invoke(Object target, Method method, Object @Nullable [] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
