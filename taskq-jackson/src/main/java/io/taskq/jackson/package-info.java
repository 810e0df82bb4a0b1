/**
 * Typed job payloads and results through the application's own Jackson {@code ObjectMapper}: see
 * {@link io.taskq.jackson.JacksonCodec} and {@code docs/jackson.md}.
 */
@NullMarked
package io.taskq.jackson;

import org.jspecify.annotations.NullMarked;
