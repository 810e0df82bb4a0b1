package io.taskq.postgres.internal.worker;

import io.taskq.core.internal.NotifyChannels;
import java.security.SecureRandom;

/**
 * Worker ids: 16 random lower-case letters and digits. The id becomes part of the worker's NOTIFY
 * channel {@code taskq_worker_{tag}_{id}} (M2), which PostgreSQL caps at 63 bytes: with the 24-byte
 * prefix an id may have at most 39 characters, and only characters a channel name may hold
 * unquoted. 16 characters from 36 give about 82 bits: no two workers ever meet.
 */
public final class WorkerId {
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private WorkerId() {}

  /** A fresh random id, checked against the channel rules of {@link NotifyChannels}. */
  public static String random() {
    char[] id = new char[16];
    for (int i = 0; i < id.length; i++) {
      id[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return NotifyChannels.requireWorkerId(new String(id));
  }
}
