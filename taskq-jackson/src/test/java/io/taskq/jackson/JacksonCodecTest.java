package io.taskq.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.taskq.NonRetryableException;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The codec on its own: what maps, what does not, and what the errors say. */
@Tag("P6")
class JacksonCodecTest {
  record OrderPlaced(long orderId, String customer) {}

  record Receipt(String number) {}

  /** A type Jackson cannot write: its getter throws. */
  static final class Unwritable {
    private final boolean broken = true;

    public String getValue() {
      if (broken) {
        throw new IllegalStateException("no value today");
      }
      return "never";
    }
  }

  private final ObjectMapper mapper = new ObjectMapper();
  private final JacksonCodec<OrderPlaced> orders = JacksonCodec.of(mapper, OrderPlaced.class);

  @Test
  void decode_mapsFieldsByNameWhateverTheirOrderAndSpacing() {
    assertThat(orders.decode("{\"customer\": \"ada\", \"orderId\": 42}"))
        .isEqualTo(new OrderPlaced(42, "ada"));
  }

  @Test
  void toJson_thenDecode_givesThePayloadBack() {
    OrderPlaced order = new OrderPlaced(7, "grace");
    assertThat(orders.decode(orders.toJson(order))).isEqualTo(order);
  }

  @Test
  void decode_ofAnUnknownField_isANonRetryablePayloadMappingExceptionNamingTypeAndField() {
    assertThatThrownBy(() -> orders.decode("{\"orderId\": 1, \"customer\": \"x\", \"sku\": 3}"))
        .isInstanceOf(PayloadMappingException.class)
        .isInstanceOf(NonRetryableException.class)
        .hasMessageStartingWith(
            "the payload does not map to io.taskq.jackson.JacksonCodecTest$OrderPlaced: ")
        .hasMessageContaining("\"sku\"")
        .hasMessageNotContaining("Source:");
  }

  @Test
  void decode_ofAValueOfTheWrongShape_namesThePath() {
    JacksonCodec<List<OrderPlaced>> lists =
        JacksonCodec.of(mapper, new TypeReference<List<OrderPlaced>>() {});
    assertThatThrownBy(() -> lists.decode("[{\"orderId\": 1}, {\"orderId\": {\"no\": 1}}]"))
        .isInstanceOf(PayloadMappingException.class)
        .hasMessageContaining("java.util.List<io.taskq.jackson.JacksonCodecTest$OrderPlaced>")
        .hasMessageContaining("[1]")
        .hasMessageContaining("orderId");
  }

  @Test
  void decode_followsTheMapperTheApplicationConfigured() {
    ObjectMapper lenient =
        new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    assertThat(JacksonCodec.of(lenient, OrderPlaced.class).decode("{\"orderId\": 1, \"sku\": 3}"))
        .isEqualTo(new OrderPlaced(1, null));
  }

  @Test
  void encode_writesTheResult_andReadResultReadsItBack() {
    String json = orders.encode(new Receipt("R-1"));
    assertThat(json).isEqualTo("{\"number\":\"R-1\"}");
    assertThat(orders.readResult(json, Receipt.class)).isEqualTo(new Receipt("R-1"));
  }

  @Test
  void encode_ofAnUnwritableResult_isANonRetryableResultMappingException() {
    assertThatThrownBy(() -> orders.encode(new Unwritable()))
        .isInstanceOf(ResultMappingException.class)
        .isInstanceOf(NonRetryableException.class)
        .hasMessageStartingWith(
            "the result of type io.taskq.jackson.JacksonCodecTest$Unwritable cannot be written")
        .hasMessageContaining("no value today");
  }

  @Test
  void readResult_thatDoesNotMap_isAResultMappingException() {
    assertThatThrownBy(() -> orders.readResult("{\"number\": [1]}", Receipt.class))
        .isInstanceOf(ResultMappingException.class)
        .hasMessageContaining("Receipt")
        .hasMessageContaining("number");
  }

  @Test
  void toJson_ofAnUnwritablePayload_failsAtTheProducer() {
    JacksonCodec<Unwritable> codec = JacksonCodec.of(mapper, Unwritable.class);
    assertThatThrownBy(() -> codec.toJson(new Unwritable()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be written as io.taskq.jackson.JacksonCodecTest$Unwritable");
  }
}
