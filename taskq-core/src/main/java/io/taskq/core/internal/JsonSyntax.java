package io.taskq.core.internal;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A strict JSON (RFC 8259) syntax check without building a tree, so a payload is rejected with its
 * offset before it reaches the database, and without forcing a JSON library on users.
 *
 * <p>Beyond the RFC it rejects what {@code jsonb} cannot store: the escape {@code \u0000} (F6), an
 * unpaired surrogate, escaped ({@code "\ud800"}, {@code "\udc00x"}) or raw (R3), and nesting deeper
 * than {@value #MAX_DEPTH} levels.
 */
public final class JsonSyntax {
  /** Deeper documents are refused (and the recursion stays far from the stack limit). */
  public static final int MAX_DEPTH = 256;

  private final String text;
  private int at;

  private JsonSyntax(String text) {
    this.text = text;
  }

  /** Why {@code json} is not one valid JSON value, with the offset; {@code null} when it is. */
  public static @Nullable String problem(String json) {
    JsonSyntax parser = new JsonSyntax(json);
    try {
      parser.skipSpace();
      parser.value(1);
      parser.skipSpace();
      if (parser.at < json.length()) {
        throw parser.fail("unexpected " + parser.describeHere() + " after the JSON value");
      }
      return null;
    } catch (Invalid e) {
      return e.getMessage();
    }
  }

  private void value(int depth) {
    if (depth > MAX_DEPTH) {
      throw fail("nested deeper than " + MAX_DEPTH + " levels");
    }
    switch (peek()) {
      case '{' -> object(depth);
      case '[' -> array(depth);
      case '"' -> string();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> number();
    }
  }

  private void object(int depth) {
    at++;
    skipSpace();
    if (peek() == '}') {
      at++;
      return;
    }
    while (true) {
      if (peek() != '"') {
        throw fail("expected a string key but found " + describeHere());
      }
      string();
      skipSpace();
      expect(':');
      skipSpace();
      value(depth + 1);
      skipSpace();
      if (!separatorOrEnd('}')) {
        return;
      }
    }
  }

  private void array(int depth) {
    at++;
    skipSpace();
    if (peek() == ']') {
      at++;
      return;
    }
    while (true) {
      value(depth + 1);
      skipSpace();
      if (!separatorOrEnd(']')) {
        return;
      }
    }
  }

  /** Consumes ',' (returns true: more follows) or {@code end} (returns false). */
  private boolean separatorOrEnd(char end) {
    char c = peek();
    at++;
    if (c == ',') {
      skipSpace();
      return true;
    }
    if (c == end) {
      return false;
    }
    at--;
    throw fail("expected ',' or '" + end + "' but found " + describeHere());
  }

  private void string() {
    at++;
    while (true) {
      if (at >= text.length()) {
        throw fail("unterminated string");
      }
      char c = text.charAt(at);
      if (c == '"') {
        at++;
        return;
      }
      if (c == '\\') {
        escape();
      } else if (c < 0x20) {
        throw fail("unescaped control character " + codePoint(c) + " in a string");
      } else if (Character.isHighSurrogate(c)
          && at + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(at + 1))) {
        at += 2;
      } else if (Character.isSurrogate(c)) {
        throw fail(unpaired(c, "character"));
      } else {
        at++;
      }
    }
  }

  private void escape() {
    at++;
    char c = peek();
    if ("\"\\/bfnrt".indexOf(c) >= 0) {
      at++;
      return;
    }
    if (c != 'u' || at + 5 > text.length()) {
      throw fail("invalid escape sequence");
    }
    int u = at;
    char code = unicodeEscape();
    if (code == 0) {
      at = u;
      throw fail("the escape \\u0000 (NUL) is not allowed: PostgreSQL jsonb cannot store it");
    }
    if (Character.isLowSurrogate(code)) {
      at = u;
      throw fail(unpaired(code, "escape"));
    }
    if (Character.isHighSurrogate(code)) {
      int low = text.startsWith("\\u", at) ? tryUnicodeEscape(at + 1) : -1;
      if (low < 0 || !Character.isLowSurrogate((char) low)) {
        at = u;
        throw fail(unpaired(code, "escape"));
      }
      at += 6;
    }
  }

  /** Reads the four hex digits after the {@code u} at {@code at}; leaves {@code at} after them. */
  private char unicodeEscape() {
    if (at + 5 > text.length()) {
      throw fail("invalid \\u escape");
    }
    int code = tryUnicodeEscape(at);
    if (code < 0) {
      throw fail("invalid \\u escape");
    }
    at += 5;
    return (char) code;
  }

  /** The code unit of the {@code uXXXX} at {@code u}, or -1 when it is not one. */
  private int tryUnicodeEscape(int u) {
    if (u + 5 > text.length() || text.charAt(u) != 'u') {
      return -1;
    }
    int code = 0;
    for (int k = 1; k <= 4; k++) {
      int digit = Character.digit(text.charAt(u + k), 16);
      if (digit < 0) {
        return -1;
      }
      code = code * 16 + digit;
    }
    return code;
  }

  private static String unpaired(char c, String form) {
    return "unpaired surrogate "
        + codePoint(c)
        + " ("
        + form
        + "): PostgreSQL jsonb stores only whole characters; a surrogate must be a high one"
        + " (U+D800-U+DBFF) followed by a low one (U+DC00-U+DFFF)";
  }

  private void number() {
    int start = at;
    if (peekOrEnd() == '-') {
      at++;
    }
    if (peekOrEnd() == '0') {
      at++;
    } else if (!digits()) {
      at = start;
      throw fail("expected a JSON value but found " + describeHere());
    }
    if (peekOrEnd() == '.') {
      at++;
      if (!digits()) {
        throw fail("expected a digit after the decimal point");
      }
    }
    if (peekOrEnd() == 'e' || peekOrEnd() == 'E') {
      at++;
      if (peekOrEnd() == '+' || peekOrEnd() == '-') {
        at++;
      }
      if (!digits()) {
        throw fail("expected a digit in the exponent");
      }
    }
  }

  private boolean digits() {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    return at > start;
  }

  private void literal(String word) {
    if (!text.startsWith(word, at)) {
      throw fail("expected '" + word + "'");
    }
    at += word.length();
  }

  private void expect(char c) {
    if (peek() != c) {
      throw fail("expected '" + c + "' but found " + describeHere());
    }
    at++;
  }

  private void skipSpace() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      at++;
    }
  }

  private char peek() {
    if (at >= text.length()) {
      throw fail("unexpected end of input");
    }
    return text.charAt(at);
  }

  private char peekOrEnd() {
    return at < text.length() ? text.charAt(at) : '\uFFFF';
  }

  private String describeHere() {
    if (at >= text.length()) {
      return "the end of input";
    }
    char c = text.charAt(at);
    return c < 0x20 || c > 0x7e ? codePoint(c) : "'" + c + "'";
  }

  private static String codePoint(char c) {
    return String.format(Locale.ROOT, "U+%04X", (int) c);
  }

  private Invalid fail(String why) {
    return new Invalid("invalid JSON at offset " + at + ": " + why);
  }

  /** A syntax error; carries no stack trace (it never leaves this class). */
  private static final class Invalid extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message, null, false, false);
    }
  }
}
