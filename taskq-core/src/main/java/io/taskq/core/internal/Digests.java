package io.taskq.core.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The SHA-2 digests the naming scheme derives keys and tags from (M1, M2). */
final class Digests {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Digests() {}

  /** SHA-256 of the UTF-8 bytes of {@code text}. */
  static byte[] sha256(String text) {
    return digest("SHA-256", text);
  }

  /** SHA-224 of the UTF-8 bytes of {@code text}. */
  static byte[] sha224(String text) {
    return digest("SHA-224", text);
  }

  /** Lower-case hex of {@code bytes}. */
  static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      out.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    }
    return out.toString();
  }

  private static byte[] digest(String algorithm, String text) {
    try {
      return MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide " + algorithm, e);
    }
  }
}
