/** Implementation shared by the TaskQ modules. Internal: not an API, may change in any release. */
@NullMarked
package io.taskq.core.internal;

import org.jspecify.annotations.NullMarked;
