package io.taskq.jackson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.taskq.PayloadCodec;
import java.util.Objects;

/**
 * A {@link PayloadCodec} on the application's own Jackson {@link ObjectMapper}: handlers receive
 * their payload as a typed object, return a typed result, and producers turn the same type into the
 * payload's JSON.
 *
 * <pre>{@code
 * record OrderPlaced(long orderId, String customer) {}
 *
 * JacksonCodec<OrderPlaced> orders = JacksonCodec.of(objectMapper, OrderPlaced.class);
 * Actor<OrderPlaced> confirm =
 *     Actor.builder(
 *             "confirm-order",
 *             orders,
 *             (order, ctx) -> {
 *               mailer.confirm(order.orderId());
 *               return null; // no result to store
 *             })
 *         .build();
 * taskq.jobs().enqueue(JobRequest.of("confirm-order", orders.toJson(new OrderPlaced(42, "ada"))));
 * }</pre>
 *
 * <p><b>The mapper is used as given.</b> Its features decide what maps: with Jackson's default
 * {@code FAIL_ON_UNKNOWN_PROPERTIES} a payload carrying a field the type lacks does not map (Spring
 * Boot's mapper turns that feature off). A payload that does not map fails its job at once and for
 * good with a {@link PayloadMappingException}; a result that cannot be written fails it with a
 * {@link ResultMappingException} ({@code docs/jackson.md} explains why neither is retried, and what
 * that means for rolling deploys).
 *
 * <p><b>Key order and spaces.</b> Payloads are stored as {@code jsonb}, so the text a codec decodes
 * is PostgreSQL's rewrite of what was enqueued (keys reordered, spaces normalised, a repeated key
 * kept once). Mapping by field name does not notice; code that compares payload text does.
 *
 * <p>Thread-safe (as the mapper is, once configured): one codec serves every handler thread.
 *
 * @param <T> the payload type
 */
public final class JacksonCodec<T> implements PayloadCodec<T> {
  private final ObjectMapper mapper;
  private final JavaType type;
  private final ObjectReader reader;

  private JacksonCodec(ObjectMapper mapper, JavaType type) {
    this.mapper = mapper;
    this.type = type;
    this.reader = mapper.readerFor(type);
  }

  /**
   * A codec for payloads of class {@code type}, read and written by {@code mapper}.
   *
   * @param <T> the payload type
   * @param mapper the application's configured mapper, used as given
   * @param type the payload's class
   * @return a codec for {@code type}
   */
  public static <T> JacksonCodec<T> of(ObjectMapper mapper, Class<T> type) {
    Objects.requireNonNull(mapper, "mapper");
    return new JacksonCodec<>(mapper, mapper.constructType(Objects.requireNonNull(type, "type")));
  }

  /**
   * A codec for a generic payload type, such as {@code new TypeReference<List<OrderLine>>() {}},
   * read and written by {@code mapper}.
   *
   * @param <T> the payload type
   * @param mapper the application's configured mapper, used as given
   * @param type the payload's full generic type
   * @return a codec for {@code type}
   */
  public static <T> JacksonCodec<T> of(ObjectMapper mapper, TypeReference<T> type) {
    Objects.requireNonNull(mapper, "mapper");
    return new JacksonCodec<>(mapper, mapper.constructType(Objects.requireNonNull(type, "type")));
  }

  /**
   * Maps a stored payload onto the payload type.
   *
   * @throws PayloadMappingException when the document does not map (the job fails for good)
   */
  @Override
  public T decode(String json) {
    try {
      return reader.readValue(json);
    } catch (JsonProcessingException e) {
      throw new PayloadMappingException(
          "the payload does not map to " + type.toCanonical() + ": " + reason(e), e);
    }
  }

  /**
   * Writes a handler's result as JSON.
   *
   * @throws ResultMappingException when the mapper cannot write it (the job fails for good)
   */
  @Override
  public String encode(Object result) {
    try {
      return mapper.writeValueAsString(result);
    } catch (JsonProcessingException e) {
      throw new ResultMappingException(
          "the result of type "
              + result.getClass().getName()
              + " cannot be written as JSON: "
              + reason(e),
          e);
    }
  }

  /**
   * The JSON of {@code payload}, for a {@code JobRequest}: what a producer enqueues.
   *
   * @param payload the payload to write
   * @return its JSON text, as the mapper writes the payload type
   * @throws IllegalArgumentException when the mapper cannot write it (nothing is enqueued)
   */
  public String toJson(T payload) {
    Objects.requireNonNull(payload, "payload");
    try {
      return mapper.writerFor(type).writeValueAsString(payload);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "the payload cannot be written as " + type.toCanonical() + ": " + reason(e), e);
    }
  }

  /**
   * Reads a stored result (the JSON text of a job's result, as a lookup returns it) as {@code
   * resultType}.
   *
   * @param <R> the result type
   * @param resultJson the stored result's JSON text
   * @param resultType the class to map it onto
   * @return the mapped result
   * @throws ResultMappingException when the document does not map onto {@code resultType}
   */
  public <R> R readResult(String resultJson, Class<R> resultType) {
    Objects.requireNonNull(resultJson, "resultJson");
    try {
      return mapper.readValue(resultJson, resultType);
    } catch (JsonProcessingException e) {
      throw new ResultMappingException(
          "the result does not map to " + resultType.getName() + ": " + reason(e), e);
    }
  }

  /**
   * The payload type this codec maps.
   *
   * @return the payload's Jackson type
   */
  public JavaType type() {
    return type;
  }

  /**
   * Jackson's reason without the source excerpt and with the path in the document: a payload may
   * carry personal data, and the message is stored with the job's error.
   */
  private static String reason(JsonProcessingException e) {
    String reason = String.valueOf(e.getOriginalMessage());
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      return reason + " (at " + mapping.getPathReference() + ")";
    }
    return reason;
  }

  @Override
  public String toString() {
    return "JacksonCodec{" + type.toCanonical() + "}";
  }
}
