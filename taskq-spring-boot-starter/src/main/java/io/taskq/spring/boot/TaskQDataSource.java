package io.taskq.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Marks the {@code DataSource} TaskQ should use when it is not the application's only (or primary)
 * one, as {@code @FlywayDataSource} and {@code @QuartzDataSource} do for theirs.
 *
 * <pre>{@code
 * @Bean
 * @TaskQDataSource
 * DataSource queueDatabase() { ... }
 * }</pre>
 */
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface TaskQDataSource {}
