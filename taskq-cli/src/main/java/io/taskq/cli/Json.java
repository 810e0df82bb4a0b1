package io.taskq.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Writes maps, lists, strings, numbers, booleans, durations (as milliseconds) and nulls as JSON
 * (for --json); anything else as its {@code toString()} text. Jackson's generator does the quoting
 * and escaping, so the CLI keeps no JSON escaper of its own.
 */
final class Json {
  private static final JsonFactory FACTORY = new JsonFactory();

  private Json() {}

  static String write(@Nullable Object value) {
    StringWriter out = new StringWriter();
    try (JsonGenerator json = FACTORY.createGenerator(out)) {
      write(json, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  private static void write(JsonGenerator json, @Nullable Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        json.writeFieldName(String.valueOf(e.getKey()));
        write(json, e.getValue());
      }
      json.writeEndObject();
    } else if (value instanceof Collection<?> list) {
      json.writeStartArray();
      for (Object item : list) {
        write(json, item);
      }
      json.writeEndArray();
    } else {
      writeScalar(json, value);
    }
  }

  private static void writeScalar(JsonGenerator json, Object value) throws IOException {
    if (value instanceof Boolean b) {
      json.writeBoolean(b);
    } else if (value instanceof Number) {
      json.writeNumber(value.toString());
    } else if (value instanceof Duration d) {
      json.writeNumber(d.toMillis());
    } else {
      json.writeString(value.toString());
    }
  }
}
