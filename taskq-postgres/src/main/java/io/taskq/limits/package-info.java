/**
 * Rate limits, the PostgreSQL half: {@link io.taskq.limits.PostgresSlidingWindow} is the
 * sliding-window limiter kept in PostgreSQL. The limiter contract and the algorithms live in the
 * same package in {@code taskq-core}.
 */
@NullMarked
package io.taskq.limits;

import org.jspecify.annotations.NullMarked;
