/** Runnable examples of TaskQ, the README demo first. */
@NullMarked
package io.taskq.examples;

import org.jspecify.annotations.NullMarked;
