package io.taskq.postgres.testing;

import io.taskq.testing.ForwardingDataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * A {@link DataSource} wrapper that records every statement execution on the connections it hands
 * out (the B1 proof: statements per batch), through {@link Proxy} rather than a mock. Records the
 * SQL of each {@code execute*} call; commits and rollbacks are not statements.
 */
public final class StatementCounter extends ForwardingDataSource {
  private static final Set<String> EXECUTIONS =
      Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch");

  private final List<String> executed = Collections.synchronizedList(new ArrayList<>());

  public StatementCounter(DataSource target) {
    super(target);
  }

  /** The SQL of every execution so far, in order. */
  public List<String> executed() {
    synchronized (executed) {
      return List.copyOf(executed);
    }
  }

  public int count() {
    return executed.size();
  }

  public void reset() {
    executed.clear();
  }

  @Override
  public Connection getConnection() throws SQLException {
    return wrap(target.getConnection());
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return wrap(target.getConnection(user, password));
  }

  private Connection wrap(Connection connection) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result = invoke(connection, method, args);
          if (result instanceof PreparedStatement ps
              && method.getName().equals("prepareStatement")) {
            return statement(ps, PreparedStatement.class, (String) args[0]);
          }
          if (result instanceof Statement st && method.getName().equals("createStatement")) {
            return statement(st, Statement.class, null);
          }
          return result;
        };
    return (Connection)
        Proxy.newProxyInstance(
            StatementCounter.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
  }

  private <T extends Statement> T statement(T target, Class<T> type, String preparedSql) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (EXECUTIONS.contains(method.getName())) {
            executed.add(
                args != null && args.length > 0 && args[0] instanceof String sql
                    ? sql
                    : preparedSql);
          }
          return invoke(target, method, args);
        };
    return type.cast(
        Proxy.newProxyInstance(
            StatementCounter.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
