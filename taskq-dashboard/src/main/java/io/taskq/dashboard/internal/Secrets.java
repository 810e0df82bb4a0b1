package io.taskq.dashboard.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/** Random tokens and constant-time comparison of secrets (W3, W4). */
public final class Secrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Secrets() {}

  /** 32 random bytes, URL-safe base64 without padding (43 characters). */
  public static String randomToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * Whether {@code given} equals {@code expected}, in time that depends on neither's content nor
   * length: both are hashed first, and the digests compared with {@link MessageDigest#isEqual}.
   */
  public static boolean matches(String given, String expected) {
    return MessageDigest.isEqual(sha256(given), sha256(expected));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
