package io.taskq.postgres.internal.worker;

import java.security.SecureRandom;
import java.util.regex.Pattern;

/**
 * Worker ids: 16 random lower-case letters and digits. The id becomes part of the worker's NOTIFY
 * channel {@code taskq_worker_{tag}_{id}} (M2), which PostgreSQL caps at 63 bytes: with the 24-byte
 * prefix an id may have at most 39 characters, and only characters a channel name may hold
 * unquoted. 16 characters from 36 give about 82 bits: no two workers ever meet.
 */
public final class WorkerId {
  /** Longest id that keeps the worker channel within PostgreSQL's 63-byte identifiers. */
  public static final int MAX_LENGTH = 39;

  private static final Pattern VALID = Pattern.compile("[a-z0-9]{1," + MAX_LENGTH + "}");
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private WorkerId() {}

  /** A fresh random id. */
  public static String random() {
    char[] id = new char[16];
    for (int i = 0; i < id.length; i++) {
      id[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return new String(id);
  }

  /** Whether {@code id} is a usable worker id. */
  public static boolean isValid(String id) {
    return VALID.matcher(id).matches();
  }
}
