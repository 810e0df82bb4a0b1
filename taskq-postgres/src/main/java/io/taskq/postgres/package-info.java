/** The PostgreSQL store of TaskQ. */
@NullMarked
package io.taskq.postgres;

import org.jspecify.annotations.NullMarked;
