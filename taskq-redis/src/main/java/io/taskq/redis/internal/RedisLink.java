package io.taskq.redis.internal;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.taskq.core.internal.config.CredentialMask;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Lettuce client and its shared connection, set up so that no call can hang (D14).
 *
 * <p>Design note. Every command has a deadline: the sync API's timeout and Lettuce's own command
 * expiry are both the command timeout, and so is the connect timeout. While the connection is down
 * Lettuce reconnects in the background and <em>rejects</em> commands at once instead of queueing
 * them until their deadline, so an outage costs a caller microseconds, not a timeout. The first
 * connection is opened lazily, so a process starts while Redis is away; after a failed attempt the
 * next one waits {@link #RECONNECT_DELAY} (calls in between fail at once), so a dead host does not
 * make every caller pay the connect timeout. Lettuce's background reconnect doubles its delay from
 * 1 ms up to {@link #MAX_RECONNECT_DELAY} (its own default goes to 30 s), so after an outage of any
 * length Redis is used again within 2 s of answering.
 *
 * <p>The URL may carry a password: only its masked form is ever shown. Availability transitions are
 * logged once each (WARN when Redis becomes unavailable, INFO when it answers again), never per
 * call.
 */
public final class RedisLink implements AutoCloseable {
  /** How long after a failed connect attempt calls fail at once instead of trying again. */
  public static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);

  /**
   * The longest wait between two of Lettuce's background reconnect attempts (doubling from 1 ms up
   * to this), so Redis is used again at most this long after it answers, however long it was away.
   */
  public static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(2);

  private static final Logger log = LoggerFactory.getLogger(RedisLink.class);

  private final ClientResources resources;
  private final RedisClient client;
  private final String maskedUrl;
  private final Duration commandTimeout;
  private final AtomicBoolean available = new AtomicBoolean(true);
  private volatile @Nullable StatefulRedisConnection<String, String> connection;
  private @Nullable RedisException lastConnectFailure;
  private long lastConnectFailureNanos;
  private volatile boolean closed;

  private RedisLink(
      ClientResources resources, RedisClient client, String maskedUrl, Duration commandTimeout) {
    this.resources = resources;
    this.client = client;
    this.maskedUrl = maskedUrl;
    this.commandTimeout = commandTimeout;
  }

  /**
   * A link to {@code url} whose every command has {@code commandTimeout} as its deadline. Opens no
   * connection yet.
   *
   * @throws IllegalArgumentException when {@code url} is not a Redis URL (the message shows it
   *     masked) or the timeout is not positive
   */
  public static RedisLink open(String url, Duration commandTimeout) {
    Objects.requireNonNull(url, "redis url");
    Objects.requireNonNull(commandTimeout, "commandTimeout");
    if (commandTimeout.isNegative() || commandTimeout.isZero()) {
      throw new IllegalArgumentException(
          "Redis command timeout must be positive, was " + commandTimeout);
    }
    String masked = CredentialMask.mask(url);
    RedisURI uri = parse(url, masked);
    uri.setTimeout(commandTimeout);
    ClientResources resources =
        DefaultClientResources.builder()
            .reconnectDelay(
                Delay.exponential(
                    Duration.ofMillis(1), MAX_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS))
            .build();
    RedisClient client = RedisClient.create(resources, uri);
    client.setOptions(options(commandTimeout));
    return new RedisLink(resources, client, masked, commandTimeout);
  }

  private static RedisURI parse(String url, String masked) {
    try {
      return RedisURI.create(url);
    } catch (RuntimeException e) {
      // Lettuce's message may quote the URL, password and all: never pass it on.
      throw new IllegalArgumentException("invalid Redis URL " + masked);
    }
  }

  private static ClientOptions options(Duration commandTimeout) {
    return ClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
        .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).build())
        .build();
  }

  /**
   * The shared connection's sync commands (thread-safe), connecting first if needed.
   *
   * @throws RedisException when Redis cannot be reached; see {@link RedisFailures}
   */
  public RedisCommands<String, String> commands() {
    StatefulRedisConnection<String, String> open = connection;
    return (open != null && !closed ? open : connection()).sync();
  }

  private synchronized StatefulRedisConnection<String, String> connection() {
    if (closed) {
      throw new IllegalStateException("Redis link to " + maskedUrl + " is closed");
    }
    StatefulRedisConnection<String, String> open = connection;
    if (open != null) {
      return open;
    }
    RedisException failed = lastConnectFailure;
    if (failed != null && System.nanoTime() - lastConnectFailureNanos < RECONNECT_DELAY.toNanos()) {
      throw new RedisConnectionException(
          "Redis at "
              + maskedUrl
              + " is unreachable; next connect attempt within "
              + RECONNECT_DELAY,
          failed);
    }
    try {
      open = client.connect();
    } catch (RedisException e) {
      lastConnectFailure = e;
      lastConnectFailureNanos = System.nanoTime();
      throw e;
    }
    lastConnectFailure = null;
    connection = open;
    return open;
  }

  /**
   * A new pub/sub connection (pub/sub needs its own, D13), with the same timeouts; the caller
   * closes it. Lettuce re-subscribes its channels after a reconnect.
   *
   * @throws RedisException when Redis cannot be reached
   */
  public StatefulRedisPubSubConnection<String, String> connectPubSub() {
    if (closed) {
      throw new IllegalStateException("Redis link to " + maskedUrl + " is closed");
    }
    return client.connectPubSub();
  }

  /** The deadline of every command. */
  public Duration commandTimeout() {
    return commandTimeout;
  }

  /** The URL with any password masked; the only form of it that may be shown. */
  public String maskedUrl() {
    return maskedUrl;
  }

  /** Records a successful call: logs once when Redis answers again after being unavailable. */
  public void markAvailable() {
    if (available.compareAndSet(false, true)) {
      log.info("Redis at {} answers again", maskedUrl);
    }
  }

  /** Records an unavailability: logs once per outage, naming what degraded and how. */
  public void markUnavailable(Throwable failure, String consequence) {
    if (available.compareAndSet(true, false)) {
      log.warn("Redis at {} is unavailable ({}); {}", maskedUrl, failure.toString(), consequence);
    }
  }

  /** False from a failed call until the next successful one. */
  public boolean available() {
    return available.get();
  }

  @Override
  public void close() {
    StatefulRedisConnection<String, String> open;
    synchronized (this) {
      closed = true;
      open = connection;
      connection = null;
    }
    if (open != null) {
      open.close();
    }
    client.shutdown(0, commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
    // Resources handed to the client are the caller's to shut down; the wait is bounded.
    long quietMillis = commandTimeout.toMillis();
    boolean unused =
        resources
            .shutdown(0, quietMillis, TimeUnit.MILLISECONDS)
            .awaitUninterruptibly(quietMillis + 1000);
  }

  @Override
  public String toString() {
    return "RedisLink{" + maskedUrl + ", timeout=" + commandTimeout + "}";
  }
}
