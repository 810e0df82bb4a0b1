package io.taskq.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that runs against the real PostgreSQL and Redis (decision D4).
 *
 * <p>The class gets its own fresh schema (dropped afterwards), a pooled {@code DataSource} and a
 * Redis key prefix, all reachable through a {@link TestServices} parameter of any test or lifecycle
 * method.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(TaskQTestExtension.class)
public @interface TaskQTest {}
