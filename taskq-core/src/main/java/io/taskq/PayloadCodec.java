package io.taskq;

/**
 * Turns JSON text into a handler's payload type and a handler's result back into JSON text.
 *
 * <p>Payloads and results are stored as JSON ({@code jsonb}). TaskQ depends on no JSON library, so
 * an application plugs its own in (Jackson, Gson, JSON-B...) by implementing this interface; {@link
 * #rawJson()} hands the JSON text through unchanged for handlers that parse it themselves.
 *
 * <p>Both methods run on the handler's thread: an exception from either fails the attempt like an
 * exception from the handler (and is retried the same way, unless it is a {@link
 * NonRetryableException}, which fails the job for good: the right answer for a payload that will
 * never decode). {@code taskq-jackson}'s {@code JacksonCodec} is one on Jackson.
 *
 * @param <T> the payload type handlers receive
 */
public interface PayloadCodec<T> {
  /**
   * Decodes a job's payload.
   *
   * @return the payload
   * @param json the stored payload, a JSON document as text
   */
  T decode(String json);

  /**
   * Encodes a handler's result (never {@code null}: a {@code null} result stores nothing).
   *
   * @param result the handler's result, not {@code null}
   * @return well-formed JSON text; the database rejects anything else and the attempt fails with
   *     {@code error_class} {@code InvalidResult}
   */
  String encode(Object result);

  /**
   * {@return a codec that passes JSON text through: payloads arrive as their JSON text, and a
   * handler returns JSON text (a {@link CharSequence}), a number or a boolean}
   */
  static PayloadCodec<String> rawJson() {
    return RawJsonCodec.INSTANCE;
  }
}
