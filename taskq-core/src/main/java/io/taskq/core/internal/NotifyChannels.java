package io.taskq.core.internal;

import io.taskq.SchemaName;
import java.util.regex.Pattern;

/**
 * The LISTEN/NOTIFY channels of one schema (M2).
 *
 * <p>Channels are per <em>database</em>, like advisory locks, so each carries a tag derived from
 * the schema: the first 10 hex digits of SHA-224 of the schema name's UTF-8 bytes. The tag, not the
 * schema itself, goes into the channel because a channel is a 63-byte identifier and the schema
 * name alone may be that long. For schema {@code taskq} the tag is {@code 124a200651}:
 *
 * <pre>
 *   wake (claimable work appeared)      taskq_wake_124a200651
 *   events (the reclaim feed moved)     taskq_events_124a200651
 *   one worker (commands to it)         taskq_worker_124a200651_{worker_id}
 * </pre>
 *
 * <p>Every channel is made of {@code [a-z0-9_]} and starts with a letter, so it reads the same
 * unquoted in {@code LISTEN} (PostgreSQL folds unquoted identifiers to lower case, which changes
 * nothing here) and as the text argument of {@code pg_notify(channel, payload)}. {@link
 * Channel#quoted()} gives the double-quoted identifier for callers that prefer to quote.
 *
 * <p>Worker ids are therefore restricted to 1 to {@value #MAX_WORKER_ID_LENGTH} characters of
 * {@code [a-z0-9_]} (a UUID's 32 hex digits without hyphens fit), which keeps the longest channel
 * at 63 bytes; other ids are rejected rather than truncated, since a truncated channel could be
 * shared by two workers.
 */
public final class NotifyChannels {
  /** PostgreSQL's identifier limit (NAMEDATALEN - 1), which channel names obey. */
  public static final int MAX_CHANNEL_BYTES = 63;

  /** Hex digits of the schema tag. */
  public static final int TAG_LENGTH = 10;

  /**
   * The longest worker id whose channel stays within {@link #MAX_CHANNEL_BYTES}: 63 minus {@code
   * taskq_worker_} (13), the tag (10) and the {@code _} before the id (1).
   */
  public static final int MAX_WORKER_ID_LENGTH = 39;

  private static final String WORKER_PREFIX = "taskq_worker_";
  private static final Pattern WORKER_ID = Pattern.compile("[a-z0-9_]+");
  private static final Pattern CHANNEL = Pattern.compile("[a-z][a-z0-9_]{0,62}");

  private final String tag;

  private NotifyChannels(String tag) {
    this.tag = tag;
  }

  /** The channels of {@code schema}. */
  public static NotifyChannels of(SchemaName schema) {
    return new NotifyChannels(tagOf(schema));
  }

  /** The first {@value #TAG_LENGTH} hex digits of SHA-224(UTF-8 schema name). */
  public static String tagOf(SchemaName schema) {
    return Digests.hex(Digests.sha224(schema.value())).substring(0, TAG_LENGTH);
  }

  /** The schema's tag, e.g. {@code 124a200651} for {@code taskq}. */
  public String tag() {
    return tag;
  }

  /** {@code taskq_wake_{tag}}: claimable work appeared (enqueue, S3 promotion, retries). */
  public Channel wake() {
    return new Channel("taskq_wake_" + tag);
  }

  /** {@code taskq_events_{tag}}: the reclaim event feed has new rows (E2). */
  public Channel events() {
    return new Channel("taskq_events_" + tag);
  }

  /**
   * {@code taskq_worker_{tag}_{worker_id}}: messages addressed to one worker.
   *
   * @throws IllegalArgumentException naming the id and the allowed form when {@code workerId} is
   *     not 1 to {@value #MAX_WORKER_ID_LENGTH} characters of {@code [a-z0-9_]}
   */
  public Channel worker(String workerId) {
    return new Channel(WORKER_PREFIX + tag + "_" + requireWorkerId(workerId));
  }

  /**
   * Returns {@code workerId} when it can name a worker channel.
   *
   * @throws IllegalArgumentException naming the id and the allowed form otherwise
   */
  public static String requireWorkerId(String workerId) {
    if (workerId.length() > MAX_WORKER_ID_LENGTH || !WORKER_ID.matcher(workerId).matches()) {
      throw new IllegalArgumentException(
          "invalid worker id '"
              + TextBoundary.escapeNul(workerId)
              + "': a worker id names a NOTIFY channel, so it must be 1 to "
              + MAX_WORKER_ID_LENGTH
              + " characters of [a-z0-9_] (was "
              + workerId.length()
              + " characters)");
    }
    return workerId;
  }

  /**
   * One channel name.
   *
   * @param name the channel as {@code pg_notify} takes it and as unquoted {@code LISTEN} reads it
   */
  public record Channel(String name) {
    /**
     * @throws IllegalArgumentException unless {@code name} is 1 to 63 characters of {@code
     *     [a-z0-9_]} starting with a letter
     */
    public Channel {
      if (!CHANNEL.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "invalid channel name '"
                + TextBoundary.escapeNul(name)
                + "': must be 1 to 63 characters of [a-z0-9_], starting with a letter");
      }
    }

    /** The channel as a double-quoted identifier: {@code "taskq_wake_124a200651"}. */
    public String quoted() {
      return '"' + name + '"';
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
