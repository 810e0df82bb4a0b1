package io.taskq.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that runs against the real PostgreSQL and Redis (decision D4).
 *
 * <p>The class gets its own fresh schema (dropped afterwards), a pooled {@code DataSource} and a
 * Redis key prefix (Redis itself is needed only by a class that uses it), all reachable through a
 * {@link TestServices} parameter of any test, lifecycle method or constructor. {@code @Nested}
 * classes share their enclosing class's services.
 *
 * <p>Where the servers come from: {@code TASKQ_TEST_JDBC_URL} / {@code TASKQ_TEST_REDIS_URL} when
 * set, else PostgreSQL on 127.0.0.1:5432 (database {@code test}, user {@code postgres}) and Redis
 * on 127.0.0.1:6379, else Testcontainers when it is on the test class path and Docker answers, else
 * the class fails with a message naming what is missing. A test is never skipped for want of a
 * server.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(TaskQTestExtension.class)
public @interface TaskQTest {
  /**
   * The most connections the class's pool opens at once. Small by default because the suite runs
   * many classes on a small machine; a class whose test holds more connections at the same time
   * (several workers plus a leader, say) raises it. A borrower that waits more than 10 s fails.
   *
   * <p>Default 4; range 1..50.
   *
   * @return the pool's maximum size
   */
  int poolSize() default 4;

  /**
   * The start of the class's schema name: schemas are named {@code <prefix>_<class>_<random>}. For
   * a database user that may create only schemas with a given prefix, or to recognise leftovers of
   * a killed run. Redis is found only when a test uses it ({@link TestServices#redisUri()}).
   *
   * <p>Default {@code t}; 1 to 16 lower-case letters, digits or underscores, starting with a
   * letter.
   *
   * @return the schema name prefix
   */
  String schemaPrefix() default "t";
}
