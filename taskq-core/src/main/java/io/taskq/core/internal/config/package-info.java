/**
 * The configuration machinery behind {@link io.taskq.TaskQConfig}: one catalog of knobs ({@link
 * io.taskq.core.internal.config.KnobCatalog}) from which the builder, the environment reader,
 * validation, {@code toString} and the documentation test all read. Internal: not an API, may
 * change in any release.
 */
@NullMarked
package io.taskq.core.internal.config;

import org.jspecify.annotations.NullMarked;
