package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class RawJsonCodecTest {
  private final PayloadCodec<String> codec = PayloadCodec.rawJson();

  @Test
  void payloads_passThroughUnchanged() {
    assertThat(codec.decode("{\"to\": \"a@b.c\"}")).isEqualTo("{\"to\": \"a@b.c\"}");
  }

  @Test
  void jsonTextNumbersAndBooleans_encodeAsThemselves() {
    assertThat(codec.encode("[1, 2]")).isEqualTo("[1, 2]");
    assertThat(codec.encode(java.nio.CharBuffer.wrap("{}"))).isEqualTo("{}");
    assertThat(codec.encode(42)).isEqualTo("42");
    assertThat(codec.encode(new BigDecimal("1.50"))).isEqualTo("1.50");
    assertThat(codec.encode(2.5d)).isEqualTo("2.5");
    assertThat(codec.encode(true)).isEqualTo("true");
  }

  @Test
  void otherValues_areRefusedWithAHint() {
    assertThatThrownBy(() -> codec.encode(new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got java.lang.Object")
        .hasMessageContaining("plug in a PayloadCodec backed by a JSON library");
    assertThatThrownBy(() -> codec.encode(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
