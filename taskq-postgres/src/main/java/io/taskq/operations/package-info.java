/**
 * Operating the queue (A1-A4): search jobs and count them, read one job's full story, retry by hand
 * or by filter, pause and resume queues and actors. The entry point is {@link Operations}, a handle
 * from the TaskQ root; {@code docs/operations.md} describes every call.
 */
@NullMarked
package io.taskq.operations;

import org.jspecify.annotations.NullMarked;
