/** The dashboard's implementation: routing, pages, templates, sessions and request checks. */
@NullMarked
package io.taskq.dashboard.internal;

import org.jspecify.annotations.NullMarked;
