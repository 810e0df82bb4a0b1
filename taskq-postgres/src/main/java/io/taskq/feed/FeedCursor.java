package io.taskq.feed;

import io.taskq.postgres.internal.feed.FeedPosition;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Where a consumer of the crash-reclaim feed stands: every event before it was delivered, every
 * event after it is still to come (E1, D12).
 *
 * <p>A cursor is opaque. Store it as {@link #toToken()} (short ASCII text, fits any text column)
 * and turn it back with {@link #parse(String)}; start a new consumer with {@link #beginning()}.
 * Compare cursors only with {@link #equals(Object)}: their order is the feed's, which is not the
 * order of event ids. A cursor belongs to the schema whose feed produced it. Immutable and
 * thread-safe.
 */
public final class FeedCursor {
  private static final String VERSION = "v1";
  private static final Pattern TOKEN = Pattern.compile("v1:([0-9]{1,20}):([0-9]{1,20})");
  private static final int SHOWN = 64;
  private static final FeedCursor BEGINNING = new FeedCursor(FeedPosition.ZERO);

  private final FeedPosition position;

  FeedCursor(FeedPosition position) {
    this.position = position;
  }

  /** {@return the cursor before the first event the feed ever delivered} */
  public static FeedCursor beginning() {
    return BEGINNING;
  }

  /**
   * {@return the cursor {@link #toToken()} wrote}
   *
   * @param token a token from {@link #toToken()}
   * @throws IllegalArgumentException when {@code token} is not such a text; the message shows it
   */
  public static FeedCursor parse(String token) {
    Objects.requireNonNull(token, "token");
    Matcher m = TOKEN.matcher(token);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "not a reclaim feed cursor token: '"
              + shown(token)
              + "'; expected the text of FeedCursor.toToken(), such as "
              + BEGINNING.toToken());
    }
    try {
      return new FeedCursor(
          new FeedPosition(Long.parseUnsignedLong(m.group(1)), Long.parseUnsignedLong(m.group(2))));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "reclaim feed cursor token '" + shown(token) + "' holds a number above 2^64 - 1", e);
    }
  }

  /** {@return the cursor as text, for storing; {@link #parse(String)} reads it back} */
  public String toToken() {
    return VERSION
        + ':'
        + Long.toUnsignedString(position.writerXid())
        + ':'
        + Long.toUnsignedString(position.eventId());
  }

  /** {@return whether this is {@link #beginning()}} */
  public boolean isBeginning() {
    return position.equals(FeedPosition.ZERO);
  }

  FeedPosition position() {
    return position;
  }

  private static String shown(String token) {
    String cut = token.length() > SHOWN ? token.substring(0, SHOWN) + "..." : token;
    return cut.replaceAll("\\p{Cntrl}", "?");
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof FeedCursor c && c.position.equals(position);
  }

  @Override
  public int hashCode() {
    return position.hashCode();
  }

  /** The token, for logs. */
  @Override
  public String toString() {
    return toToken();
  }
}
