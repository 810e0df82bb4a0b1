/**
 * The {@code taskq} command line (A8): migrations, status, jobs, queues and actors, over the public
 * operations API. {@code docs/cli.md} lists every command, its output and exit codes.
 */
@NullMarked
package io.taskq.cli;

import org.jspecify.annotations.NullMarked;
