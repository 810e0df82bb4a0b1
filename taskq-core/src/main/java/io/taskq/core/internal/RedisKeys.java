package io.taskq.core.internal;

import io.taskq.SchemaName;

/**
 * The Redis keys and pub/sub channel of one schema (M5, D13), and the process-local name space that
 * must never reach a store (M7).
 *
 * <p>Every key carries the schema, so two schemas can share one Redis without their buckets,
 * windows or progress streams colliding (M6). {@code {schema}} is {@link SchemaName#value()}, and
 * the placeholders are plain text: no hash tags, since every script touches exactly one key and a
 * schema's load should spread over a cluster's shards. For schema {@code taskq}:
 *
 * <pre>
 *   token bucket        taskq:taskq:rl:tb:{name}
 *   sliding-window log  taskq:taskq:sw:{name}       (also the Postgres fallback lock's name)
 *   GCRA                taskq:taskq:sw_gcra:{name}
 *   job progress        taskq:taskq:progress:{job_id}
 *   progress channel    taskq:taskq:progress
 * </pre>
 *
 * <h2>The process-local prefix {@value #GLOBAL_QUEUE_PREFIX}</h2>
 *
 * Queue-cap reservations are named {@code taskq:global:queue:{queue}} inside each process's
 * rate-limit registry. They are in-memory only: such a name reaching Postgres or Redis would couple
 * every schema (and every process) through one shared key. {@link #requireStoreBound(String)}
 * guards the store boundary, and no name this class or {@link AdvisoryLockName} builds can start
 * with the prefix: schema names cannot contain {@code :} ({@link SchemaName}), so the segment after
 * a schema named {@code global} is always {@code rl}, {@code sw}, {@code sw_gcra} or {@code
 * progress}, never {@code queue}.
 */
public final class RedisKeys {
  /** The in-process queue-cap reservation prefix (M7); never a store key. */
  public static final String GLOBAL_QUEUE_PREFIX = "taskq:global:queue:";

  private final SchemaName schema;
  private final String prefix;

  private RedisKeys(SchemaName schema) {
    this.schema = schema;
    this.prefix = "taskq:" + schema.value() + ":";
  }

  /** The keys of {@code schema}. */
  public static RedisKeys of(SchemaName schema) {
    return new RedisKeys(schema);
  }

  /** The schema these keys belong to. */
  public SchemaName schema() {
    return schema;
  }

  /**
   * {@code taskq:{schema}:rl:tb:{name}}: bucket {@code api} in {@code taskq} is {@code
   * taskq:taskq:rl:tb:api}.
   */
  public String tokenBucket(String name) {
    return prefix + "rl:tb:" + requireNonEmpty(name, "token bucket name");
  }

  /** {@code taskq:{schema}:sw:{name}}, the sliding-window log. */
  public String slidingWindow(String name) {
    return prefix + "sw:" + requireNonEmpty(name, "sliding window name");
  }

  /** {@code taskq:{schema}:sw_gcra:{name}}, the GCRA sliding window. */
  public String gcra(String name) {
    return prefix + "sw_gcra:" + requireNonEmpty(name, "GCRA limit name");
  }

  /** {@code taskq:{schema}:progress:{job_id}}, one job's progress. */
  public String progress(long jobId) {
    return prefix + "progress:" + jobId;
  }

  /** {@code taskq:{schema}:progress}, the schema-wide progress fan-out channel. */
  public String progressChannel() {
    return prefix + "progress";
  }

  /**
   * The in-process queue-cap reservation name of {@code queue}: {@code taskq:global:queue:{queue}}.
   */
  public static String processLocalQueueCap(String queue) {
    return GLOBAL_QUEUE_PREFIX + requireNonEmpty(queue, "queue name");
  }

  /** True when {@code name} is a process-local queue-cap reservation name (M7). */
  public static boolean isProcessLocal(String name) {
    return name.startsWith(GLOBAL_QUEUE_PREFIX);
  }

  /**
   * Returns {@code name} unchanged, or refuses a process-local name (M7) at the store boundary.
   * Call it wherever a key or lock name is about to be sent to Postgres or Redis.
   *
   * @throws IllegalArgumentException when {@code name} starts with {@value #GLOBAL_QUEUE_PREFIX}
   */
  public static String requireStoreBound(String name) {
    if (isProcessLocal(name)) {
      throw new IllegalArgumentException(
          "'"
              + TextBoundary.escapeNul(name)
              + "' is a process-local queue-cap reservation name (prefix "
              + GLOBAL_QUEUE_PREFIX
              + "); it must never reach PostgreSQL or Redis (M7)");
    }
    return name;
  }

  /** Rejects an empty or NUL-carrying caller-supplied name, naming {@code what}. */
  static String requireNonEmpty(String value, String what) {
    if (value.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return TextBoundary.requireNoNul(value, what);
  }

  @Override
  public String toString() {
    return "RedisKeys{" + prefix + "}";
  }
}
