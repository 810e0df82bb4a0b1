package io.taskq;

/** {@link PayloadCodec#rawJson()}: JSON text in, JSON text (or a JSON number or boolean) out. */
final class RawJsonCodec implements PayloadCodec<String> {
  static final RawJsonCodec INSTANCE = new RawJsonCodec();

  private RawJsonCodec() {}

  @Override
  public String decode(String json) {
    return json;
  }

  @Override
  public String encode(Object result) {
    if (result instanceof CharSequence text) {
      return text.toString();
    }
    if (result instanceof Boolean) {
      return result.toString();
    }
    if (result instanceof Number number && isFinite(number)) {
      return number.toString();
    }
    throw new IllegalArgumentException(
        "the rawJson codec encodes JSON text (a CharSequence), finite numbers and booleans; got "
            + result.getClass().getName()
            + ": plug in a PayloadCodec backed by a JSON library");
  }

  private static boolean isFinite(Number number) {
    if (number instanceof Double || number instanceof Float) {
      return Double.isFinite(number.doubleValue());
    }
    return true;
  }

  @Override
  public String toString() {
    return "PayloadCodec.rawJson()";
  }
}
