/**
 * Job progress, the PostgreSQL half: {@link io.taskq.progress.PostgresProgressStore}, the store
 * that keeps a job's latest report in PostgreSQL. The contract lives in the same package in {@code
 * taskq-core}.
 */
@NullMarked
package io.taskq.progress;

import org.jspecify.annotations.NullMarked;
