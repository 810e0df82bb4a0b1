package io.taskq.postgres.internal.sweep;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Wraps a real connection and counts the statements executed through it (every {@code execute*}
 * call of a statement it created), so a test can prove a batch's statement count is constant (B1).
 */
final class StatementCounter {
  private final AtomicInteger executed = new AtomicInteger();

  int executed() {
    return executed.get();
  }

  Connection wrap(Connection real) {
    return proxy(
        Connection.class,
        (proxy, method, args) -> {
          Object result = call(method, real, args);
          if (result instanceof Statement statement
              && method.getName().matches("prepare.*|create.*")) {
            return countingStatement(statement, method.getReturnType());
          }
          return result;
        });
  }

  private Object countingStatement(Statement real, Class<?> type) {
    return proxy(
        type,
        (proxy, method, args) -> {
          if (method.getName().startsWith("execute")) {
            executed.incrementAndGet();
          }
          return call(method, real, args);
        });
  }

  private static <T> T proxy(Class<T> type, java.lang.reflect.InvocationHandler handler) {
    return type.cast(
        Proxy.newProxyInstance(
            StatementCounter.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static @Nullable Object call(Method method, Object target, @Nullable Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
