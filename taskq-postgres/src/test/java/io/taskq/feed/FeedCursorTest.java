package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.postgres.internal.feed.FeedPosition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("E1")
@Tag("D12")
class FeedCursorTest {
  @Test
  void beginning_isBeforeEverything_andReadsBackFromItsToken() {
    FeedCursor beginning = FeedCursor.beginning();

    assertThat(beginning.isBeginning()).isTrue();
    assertThat(beginning.toToken()).isEqualTo("v1:0:0");
    assertThat(FeedCursor.parse("v1:0:0")).isEqualTo(beginning);
    assertThat(beginning.position().isAfter(FeedPosition.ZERO)).isFalse();
  }

  @Test
  void token_roundTripsEveryPosition_includingTheLargestUnsignedValues() {
    for (FeedPosition p :
        new FeedPosition[] {
          new FeedPosition(748, 3), new FeedPosition(Long.MAX_VALUE, 1), new FeedPosition(-1, -1)
        }) {
      FeedCursor cursor = new FeedCursor(p);

      FeedCursor back = FeedCursor.parse(cursor.toToken());

      assertThat(back).isEqualTo(cursor).hasSameHashCodeAs(cursor);
      assertThat(back.position()).isEqualTo(p);
      assertThat(back.isBeginning()).isFalse();
      assertThat(back).hasToString(cursor.toToken());
    }
    assertThat(new FeedCursor(new FeedPosition(-1, -1)).toToken())
        .isEqualTo("v1:18446744073709551615:18446744073709551615");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "v1", "v1:1", "v1:1:2:3", "v2:1:2", "V1:1:2", "v1:-1:2", "v1:1:x", " v1:1:2"})
  void malformedToken_isRefusedShowingIt(String token) {
    assertThatThrownBy(() -> FeedCursor.parse(token))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "not a reclaim feed cursor token: '"
                + token
                + "'; expected the text of FeedCursor.toToken(), such as v1:0:0");
  }

  @Test
  void tokenAboveTheUnsignedRange_isRefusedNamingTheProblem() {
    assertThatThrownBy(() -> FeedCursor.parse("v1:18446744073709551616:1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("above 2^64 - 1");
  }

  @Test
  void longOrControlCharacterToken_isShownCutAndEscaped() {
    assertThatThrownBy(() -> FeedCursor.parse("x".repeat(100) + "\n"))
        .hasMessageStartingWith("not a reclaim feed cursor token: '" + "x".repeat(64) + "...'");
    assertThatThrownBy(() -> FeedCursor.parse("v1:1\u0000:2")).hasMessageContaining("'v1:1?:2'");
  }

  @Test
  void nullToken_isRefusedNamingTheArgument() {
    assertThatThrownBy(() -> FeedCursor.parse(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("token");
  }

  @Test
  void positions_orderByTransactionIdThenEventId_unsigned() {
    FeedPosition low = new FeedPosition(5, 900);
    FeedPosition sameXidHigherId = new FeedPosition(5, 901);
    FeedPosition higherXidLowerId = new FeedPosition(6, 1);
    FeedPosition top = new FeedPosition(-1, 0);

    assertThat(sameXidHigherId.isAfter(low)).isTrue();
    assertThat(higherXidLowerId.isAfter(sameXidHigherId)).isTrue();
    assertThat(top.isAfter(higherXidLowerId)).isTrue();
    assertThat(low.isAfter(low)).isFalse();
    assertThat(low.compareTo(new FeedPosition(5, 900))).isZero();
  }
}
