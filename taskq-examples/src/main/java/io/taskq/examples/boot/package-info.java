/**
 * A Spring Boot application with TaskQ's starter, as a user would write it ({@code
 * docs/spring-boot.md}): a REST endpoint places an order, writing its row, enqueueing its
 * confirmation and taking the stock in one {@code @Transactional} method, and an actor bean
 * confirms the order. When the stock does not suffice the transaction rolls back, and neither the
 * order nor its job remains.
 */
@NullMarked
package io.taskq.examples.boot;

import org.jspecify.annotations.NullMarked;
