package io.taskq.feed;

import io.taskq.JobStoreException;
import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.GuardedJobListener;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.JdbcTarget;
import io.taskq.postgres.internal.StatementTimeouts;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.feed.FeedLagReader;
import io.taskq.postgres.internal.feed.FeedPosition;
import io.taskq.postgres.internal.feed.FeedRead;
import io.taskq.postgres.internal.feed.FeedReader;
import io.taskq.postgres.internal.feed.FeedRow;
import io.taskq.postgres.internal.feed.FeedWatchLoop;
import io.taskq.postgres.internal.feed.WatchSettings;
import io.taskq.spi.JobListener;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The crash-reclaim event feed of one schema (E1-E4): the jobs the lease-reclaim sweep took back
 * from dead or stalled workers, for consumers that compensate, alert or re-drive.
 *
 * <p>The feed never skips an event silently. Its order is the writer's transaction id, then the
 * event id, and it only hands out events whose writing transaction is older than every transaction
 * still running (D12), so no event can commit later at a place before one already delivered: not
 * even when a writer stalls between INSERT and COMMIT for longer than the visibility delay. On top
 * of that, an event is only handed out once it is older than the visibility delay (E1), the margin
 * the writers' statement timeout is derived from. A long transaction anywhere in the database
 * cluster therefore delays the feed (see {@link #lag()}); it never loses an event. When the event
 * retention sweep has deleted events a consumer had not read, the feed stops that consumer with an
 * {@link EventRetentionGapException} instead.
 *
 * <p>Two ways to read: {@link #pollReclaimEvents(FeedCursor, int)} for a consumer that runs its own
 * loop, and {@link #watchReclaims(FeedCursor, Consumer)} for a thread that follows the feed, woken
 * by {@code NOTIFY} on the schema's events channel {@code taskq_events_{tag}} (M2). Writers of
 * crash-reclaim events send {@code pg_notify(events channel, '')} in the transaction that inserts
 * them; the watch polls anyway, so a missing notification costs latency only.
 *
 * <p>Thread-safe; holds no connection between calls except a watch's listen session. The consumer
 * contract (cursor, order, retention gap) is written in {@code docs/upgrading.md} ("The
 * crash-reclaim feed contract").
 */
public final class ReclaimEventFeed {
  /** The most events one poll returns. */
  public static final int MAX_LIMIT = 10_000;

  /** The default number of events a watch reads per poll. */
  static final int DEFAULT_WATCH_PAGE_SIZE = 100;

  /** The default {@code application_name} of a watch's listen session. */
  static final String DEFAULT_APPLICATION_NAME = "taskq-reclaim-watch";

  private static final AtomicInteger WATCH_THREADS = new AtomicInteger();

  static {
    Handles.registerFeeds(
        (dataSource, config, listener, hooks) ->
            configured(dataSource, config).listener(listener).testHooks(hooks).build());
  }

  private final DataSource dataSource;
  private final SchemaName schema;
  private final Duration visibilityDelay;
  private final FeedReader reader;
  private final FeedLagReader lagReader;
  private final WatchSettings watchSettings;
  private final ThreadFactory threadFactory;
  private final TestHooks testHooks;
  private final JobListener listener;

  private ReclaimEventFeed(Builder b) {
    this.dataSource = b.dataSource;
    this.schema = b.schema;
    this.visibilityDelay = b.visibilityDelay;
    int timeoutSeconds = (int) Math.max(1, (b.statementTimeout.toMillis() + 999) / 1000);
    this.reader = new FeedReader(schema, visibilityDelay, timeoutSeconds);
    this.lagReader = new FeedLagReader(schema, timeoutSeconds);
    this.watchSettings =
        new WatchSettings(
            b.listenDataSource == null ? b.dataSource : b.listenDataSource,
            NotifyChannels.of(schema).events().quoted(),
            b.applicationName,
            b.pollInterval,
            b.watchPageSize);
    this.threadFactory = b.threadFactory == null ? defaultThreads(schema) : b.threadFactory;
    this.listener = GuardedJobListener.of(b.listener);
    this.testHooks = b.testHooks;
  }

  /**
   * A feed configured from {@code config} (the TaskQ root's, {@link
   * io.taskq.TaskQ#reclaimEvents()}): its schema, visibility delay ({@code
   * TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY}), poll interval ({@code TASKQ_POLL_INTERVAL}), a
   * statement timeout kept at or below the socket timeout (D10), and, when {@code
   * TASKQ_DATABASE_DIRECT_URL} is set, a watch's listen session opened there (D8:
   * transaction-pooling proxies break LISTEN).
   *
   * @param dataSource the database of the feed
   * @param config the configuration to read
   */
  static Builder configured(DataSource dataSource, TaskQConfig config) {
    Builder b = new Builder(dataSource, config.schemaName(), config);
    config.databaseDirectUrl().ifPresent(url -> b.listenDataSource(directSource(url, config)));
    return b;
  }

  /** A builder for a feed of {@code schema}, preset from the knob catalog's defaults (tests). */
  static Builder builder(DataSource dataSource, SchemaName schema) {
    return new Builder(dataSource, schema, TaskQConfig.defaults());
  }

  /** {@link #configured(DataSource, TaskQConfig)}, built. */
  static ReclaimEventFeed create(DataSource dataSource, TaskQConfig config) {
    return configured(dataSource, config).build();
  }

  /** {@link #builder(DataSource, SchemaName)}, built (tests). */
  static ReclaimEventFeed create(DataSource dataSource, SchemaName schema) {
    return builder(dataSource, schema).build();
  }

  /** {@return the schema whose feed this is} */
  public SchemaName schema() {
    return schema;
  }

  /** {@return the visibility delay (E1): events younger than this are not handed out yet} */
  public Duration visibilityDelay() {
    return visibilityDelay;
  }

  /**
   * {@return up to {@code limit} events after {@code cursor}, in feed order (E1, D12): committed,
   * written by a transaction older than every running one, and older than the visibility delay}
   * Continue from the page's {@link ReclaimEventPage#cursor() cursor}; polling the same cursor
   * again returns the same events (and maybe more).
   *
   * @param cursor where to continue from
   * @param limit 1 to {@value #MAX_LIMIT}
   * @throws EventRetentionGapException when the retention sweep deleted events after {@code cursor}
   * @throws JobStoreException when the database call fails
   */
  public ReclaimEventPage pollReclaimEvents(FeedCursor cursor, int limit) {
    Objects.requireNonNull(cursor, "cursor");
    checkLimit(limit);
    try {
      FeedRead read = read(cursor.position(), limit);
      List<ReclaimEvent> events = new ArrayList<>(read.rows().size());
      for (FeedRow row : read.rows()) {
        events.add(event(row));
      }
      FeedCursor next = events.isEmpty() ? cursor : events.get(events.size() - 1).cursor();
      return new ReclaimEventPage(events, next, read.full());
    } catch (SQLException e) {
      throw new JobStoreException("cannot poll the reclaim event feed of " + schema.quoted(), e);
    }
  }

  /**
   * Starts a thread that follows the feed from {@code cursor} and hands each event to {@code
   * consumer}, in feed order, once (E2).
   *
   * <p>The thread LISTENs on the schema's events channel on a session of its own (tagged with the
   * configured {@code application_name}) and polls at least every poll interval. It moves its
   * cursor past an event only after {@code consumer} returned from it. A dropped session or a
   * failed poll is retried with backoff; the watch ends on its own only with a retention gap or an
   * exception from the consumer (see {@link ReclaimWatch}). The consumer runs on the watch thread;
   * a slow consumer slows the watch, nothing else.
   *
   * @param cursor where to start from
   * @param consumer called with each event on the watch thread
   * @return the watch; close it to stop
   */
  public ReclaimWatch watchReclaims(FeedCursor cursor, Consumer<ReclaimEvent> consumer) {
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(consumer, "consumer");
    FeedWatchLoop loop =
        new FeedWatchLoop(
            this::read,
            row -> consumer.accept(event(row)),
            cursor.position(),
            watchSettings,
            testHooks.feedFaults());
    threadFactory.newThread(loop).start();
    return new ReclaimWatch(loop);
  }

  /**
   * {@return how far the feed is held back by running transactions (D12): the committed events
   * waiting for an older transaction to end, and that transaction's backend and age}
   *
   * @throws JobStoreException when the database call fails
   */
  public ReclaimFeedLag lag() {
    try (Connection c = dataSource.getConnection()) {
      return lagReader.read(c);
    } catch (SQLException e) {
      throw new JobStoreException("cannot read the reclaim feed lag of " + schema.quoted(), e);
    }
  }

  /** One page after {@code after}, refusing a cursor the retention cut stranded (E2). */
  private FeedRead read(FeedPosition after, int limit) throws SQLException {
    FeedRead read;
    try (Connection c = dataSource.getConnection()) {
      read = reader.read(c, after, limit);
    }
    if (read.strands(after)) {
      throw new EventRetentionGapException(new FeedCursor(after), new FeedCursor(read.watermark()));
    }
    listener.eventFeedLag(read.lag());
    return read;
  }

  private static ReclaimEvent event(FeedRow row) {
    return new ReclaimEvent(
        row.position().eventId(),
        row.jobId(),
        row.actor(),
        row.queue(),
        row.attempt(),
        row.disposition(),
        row.errorClass(),
        row.errorMessage(),
        row.occurredAt(),
        new FeedCursor(row.position()));
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be in [1, " + MAX_LIMIT + "], was " + limit);
    }
  }

  private static ThreadFactory defaultThreads(SchemaName schema) {
    String prefix = "taskq-reclaim-watch-" + NotifyChannels.tagOf(schema) + "-";
    return task -> {
      Thread t = new Thread(task, prefix + WATCH_THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  private static DataSource directSource(String url, TaskQConfig config) {
    JdbcTarget target = JdbcTarget.of(url, "TASKQ_DATABASE_DIRECT_URL");
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(target.url());
    config.databaseUser().ifPresent(ds::setUser);
    config.databasePassword().ifPresent(ds::setPassword);
    if (target.user() != null) {
      ds.setUser(target.user());
      ds.setPassword(target.password());
    }
    ds.setConnectTimeout((int) config.connectTimeout().toSeconds());
    ds.setSocketTimeout((int) config.socketTimeout().toSeconds());
    ds.setTcpKeepAlive(true);
    return ds;
  }

  /**
   * Settings of a {@link ReclaimEventFeed}, preset from a {@link TaskQConfig}; each setter
   * validates its argument at once.
   */
  static final class Builder {
    private static final Pattern APPLICATION_NAME = Pattern.compile("[\\x20-\\x7e]{1,63}");

    private final DataSource dataSource;
    private final SchemaName schema;
    private Duration visibilityDelay;
    private Duration pollInterval;
    private Duration statementTimeout;
    private int watchPageSize = DEFAULT_WATCH_PAGE_SIZE;
    private String applicationName = DEFAULT_APPLICATION_NAME;
    private @org.jspecify.annotations.Nullable DataSource listenDataSource;
    private @org.jspecify.annotations.Nullable ThreadFactory threadFactory;
    private JobListener listener = JobListener.NONE;
    private TestHooks testHooks = TestHooks.detached();

    private Builder(DataSource dataSource, SchemaName schema, TaskQConfig config) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      this.schema = Objects.requireNonNull(schema, "schema");
      this.visibilityDelay = config.reclaimEventVisibilityDelay();
      this.pollInterval = config.pollInterval();
      this.statementTimeout = StatementTimeouts.of(config);
    }

    /** The test hooks whose seams the feed's watches check: its root's; default its own. */
    Builder testHooks(TestHooks hooks) {
      this.testHooks = Objects.requireNonNull(hooks, "testHooks");
      return this;
    }

    /**
     * Events younger than this are not handed out (E1): the trailing-watermark margin a sibling
     * writer gets to commit first. Zero leaves only the transaction-id horizon (D12), which alone
     * keeps the feed complete; the margin is the guide's documented defense in depth.
     *
     * <p>Preset from {@code TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY}. Range: 0..1h.
     */
    Builder visibilityDelay(Duration delay) {
      this.visibilityDelay = within("visibilityDelay", delay, Duration.ZERO, Duration.ofHours(1));
      return this;
    }

    /**
     * The longest a watch waits between polls when no notification arrives (D11).
     *
     * <p>Preset from {@code TASKQ_POLL_INTERVAL}. Range: 10ms..1h.
     */
    Builder pollInterval(Duration interval) {
      this.pollInterval =
          within("pollInterval", interval, Duration.ofMillis(10), Duration.ofHours(1));
      return this;
    }

    /**
     * The longest one read of the feed may run, rounded up to whole seconds. Keep it below the
     * connection's socket timeout.
     *
     * <p>Preset per D10 (10 s, at most the socket timeout). Range: 1s..1h.
     */
    Builder statementTimeout(Duration timeout) {
      this.statementTimeout =
          within("statementTimeout", timeout, Duration.ofSeconds(1), Duration.ofHours(1));
      return this;
    }

    /**
     * Events a watch reads per poll.
     *
     * <p>Default: 100. Range: 1..10000.
     *
     * @param size the events a watch reads per poll
     * @return this builder
     */
    Builder watchPageSize(int size) {
      if (size < 1 || size > MAX_LIMIT) {
        throw new IllegalArgumentException(
            "watchPageSize must be in [1, " + MAX_LIMIT + "], was " + size);
      }
      this.watchPageSize = size;
      return this;
    }

    /**
     * Where a watch opens its listen session, held for the watch's life: a direct connection, not
     * one behind a transaction-pooling proxy, which breaks LISTEN (D8).
     *
     * <p>Default: the feed's data source.
     *
     * @param source where a watch opens its listen session, held for the watch's life: a direct
     *     connection, not one behind a transaction-pooling proxy, which breaks LISTEN (D8)
     * @return this builder
     */
    Builder listenDataSource(DataSource source) {
      this.listenDataSource = Objects.requireNonNull(source, "listenDataSource");
      return this;
    }

    /**
     * The {@code application_name} of a watch's listen session, to find it in {@code
     * pg_stat_activity}.
     *
     * <p>Default: {@value #DEFAULT_APPLICATION_NAME}. Range: 1 to 63 printable ASCII characters.
     *
     * @param name the {@code application_name} of a watch's listen session, to find it in {@code
     *     pg_stat_activity}
     * @return this builder
     */
    Builder watchApplicationName(String name) {
      Objects.requireNonNull(name, "watchApplicationName");
      if (!APPLICATION_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "watchApplicationName must be 1 to 63 printable ASCII characters, was '"
                + name.replaceAll("\\p{Cntrl}", "?")
                + "'");
      }
      this.applicationName = name;
      return this;
    }

    /**
     * Makes the watch threads.
     *
     * <p>Default: daemon threads named {@code taskq-reclaim-watch-{tag}-{n}}.
     *
     * @param factory the thread factory
     * @return this builder
     */
    Builder watchThreadFactory(ThreadFactory factory) {
      this.threadFactory = Objects.requireNonNull(factory, "watchThreadFactory");
      return this;
    }

    /**
     * Hears {@code eventFeedLag} after every successful poll, a watch's included: the age of the
     * newest event the poll delivered, by the database clock, zero for an empty page (the gauge
     * {@code taskq.events.feed_lag}). Its exceptions are logged and dropped, never failing a poll.
     *
     * <p>Default: none.
     *
     * @param listener the listener
     * @return this builder
     */
    Builder listener(JobListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    ReclaimEventFeed build() {
      return new ReclaimEventFeed(this);
    }

    private static Duration within(String name, Duration value, Duration min, Duration max) {
      Objects.requireNonNull(value, name);
      if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
        throw new IllegalArgumentException(
            name + " must be in [" + min + ", " + max + "], was " + value);
      }
      return value;
    }
  }
}
