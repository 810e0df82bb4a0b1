/**
 * The common path of TaskQ: configure ({@link io.taskq.TaskQConfig}, the knob catalog {@link
 * io.taskq.TaskQSetting}), register an actor ({@link io.taskq.Actor}, {@link io.taskq.JobHandler}),
 * enqueue and look up jobs. The package is split over two jars on purpose: {@code taskq-core} holds
 * the store-free types, {@code taskq-postgres} the root {@code TaskQ} and the jobs client (see
 * {@code docs/architecture.md}).
 */
@NullMarked
package io.taskq;

import org.jspecify.annotations.NullMarked;
