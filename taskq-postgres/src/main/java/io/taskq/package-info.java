/**
 * The common path of TaskQ, the PostgreSQL half: the root {@link io.taskq.TaskQ}, the jobs client
 * {@link io.taskq.JobsClient}, job requests and job lookups. The configuration, actor and handler
 * types of the same package live in {@code taskq-core} (see {@code docs/architecture.md}).
 */
@NullMarked
package io.taskq;

import org.jspecify.annotations.NullMarked;
