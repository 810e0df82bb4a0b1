/**
 * The client side of the store: enqueue, look-up and cancel statements behind {@link
 * io.taskq.JobsClient}. Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.client;

import org.jspecify.annotations.NullMarked;
