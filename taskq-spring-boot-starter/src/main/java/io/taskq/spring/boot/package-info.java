/**
 * The Spring Boot 4 starter: TaskQ on the application's {@code DataSource}, configured from {@code
 * taskq.*} properties (checked by the same knob catalog as {@code TASKQ_*} variables), started and
 * stopped with the context, enqueueing inside the application's transactions, with an Actuator
 * health contributor and metrics on the application's registry. {@code docs/spring-boot.md}
 * describes it.
 *
 * <p>Nothing here is found by component scanning: the auto-configurations are listed in {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}.
 */
@NullMarked
package io.taskq.spring.boot;

import org.jspecify.annotations.NullMarked;
