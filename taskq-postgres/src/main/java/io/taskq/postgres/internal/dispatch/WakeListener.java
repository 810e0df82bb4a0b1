package io.taskq.postgres.internal.dispatch;

import io.taskq.core.internal.NotifyChannels.Channel;
import io.taskq.postgres.internal.Backoff;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.SqlErrors;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wake-up path (L4, M2, D11): a dedicated connection that LISTENs on the schema's wake channel
 * and this worker's own channel, and turns notifications into signals.
 *
 * <p>Notifications only speed things up. A burst of them collapses into one signal (the gate's flag
 * is idempotent), their payloads are ignored (but for the pause marker, A4), and the dispatcher
 * polls anyway. When the connection fails the listener closes it, waits (backoff 100 ms to 5 s) and
 * opens a new one; after every (re)connect it signals once, because notifications sent while it was
 * away are lost.
 *
 * <p>The connection waits in {@code getNotifications(timeout)}, which only reads the socket, so an
 * idle listener costs the server nothing. Every {@code probeInterval} it checks the connection is
 * alive, so a silently dead TCP connection is found and replaced.
 */
public final class WakeListener implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(WakeListener.class);
  private static final int WAIT_MILLIS = 250;

  private final ListenConnectionSource source;
  private final Channel wakeChannel;
  private final Channel workerChannel;
  private final Runnable onWake;
  private final Runnable onWorkerMessage;
  private final Runnable onPauseChange;
  private final long probeNanos;
  private final FaultSeam seam;
  private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));
  private final AtomicLong wakeNotifications = new AtomicLong();
  private final AtomicLong connects = new AtomicLong();
  private final CountDownLatch stopSignal = new CountDownLatch(1);
  private volatile boolean stopped;
  private volatile @Nullable Connection current;

  public WakeListener(
      ListenConnectionSource source,
      Channel wakeChannel,
      Channel workerChannel,
      Runnable onWake,
      Runnable onWorkerMessage,
      Duration probeInterval,
      FaultSeam seam) {
    this(
        source, wakeChannel, workerChannel, onWake, onWorkerMessage, () -> {}, probeInterval, seam);
  }

  /**
   * A listener that also calls {@code onPauseChange} when a wake notification carries {@link
   * PausedTargets#NOTIFY_PAYLOAD} (a pause or resume, A4), before it signals the wake-up.
   */
  public WakeListener(
      ListenConnectionSource source,
      Channel wakeChannel,
      Channel workerChannel,
      Runnable onWake,
      Runnable onWorkerMessage,
      Runnable onPauseChange,
      Duration probeInterval,
      FaultSeam seam) {
    this.source = source;
    this.onPauseChange = onPauseChange;
    this.wakeChannel = wakeChannel;
    this.workerChannel = workerChannel;
    this.onWake = onWake;
    this.onWorkerMessage = onWorkerMessage;
    this.probeNanos = probeInterval.toNanos();
    this.seam = seam;
  }

  @Override
  public void run() {
    while (!stopped) {
      try {
        listen();
      } catch (SQLException | RuntimeException e) {
        if (stopped) {
          break;
        }
        Duration delay = backoff.next();
        if (backoff.failures() == 1) {
          LOG.warn(
              "wake listener lost its connection (SQLSTATE {}); reconnecting: {}",
              SqlErrors.state(e instanceof SQLException sql ? sql : null),
              e.toString());
        } else {
          LOG.debug("wake listener reconnect failed, retry in {}: {}", delay, e.toString());
        }
        sleep(delay);
      }
    }
    LOG.debug("wake listener stopped");
  }

  private void listen() throws SQLException {
    try (Connection c = source.open()) {
      current = c;
      seam.check();
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        s.execute("LISTEN " + wakeChannel.quoted());
        s.execute("LISTEN " + workerChannel.quoted());
      }
      PGConnection pg = c.unwrap(PGConnection.class);
      connects.incrementAndGet();
      backoff.reset();
      // Pauses notified while it was away are lost too.
      onPauseChange.run();
      onWake.run();
      try {
        await(c, pg);
      } finally {
        unlisten(c);
      }
    }
  }

  private void await(Connection c, PGConnection pg) throws SQLException {
    long nextProbe = System.nanoTime() + probeNanos;
    while (!stopped) {
      PGNotification[] received = pg.getNotifications(WAIT_MILLIS);
      if (received != null && received.length > 0) {
        dispatch(received);
      }
      if (System.nanoTime() - nextProbe >= 0) {
        probe(c);
        nextProbe = System.nanoTime() + probeNanos;
      }
    }
  }

  /** A borrowed connection goes back to its pool: it must not keep listening there. */
  private static void unlisten(Connection c) {
    try (Statement s = c.createStatement()) {
      s.execute("UNLISTEN *");
    } catch (SQLException e) {
      LOG.debug("UNLISTEN failed on a closing listen connection: {}", e.toString());
    }
  }

  private void probe(Connection c) throws SQLException {
    seam.check();
    if (!c.isValid(5)) {
      throw new SQLException("listen connection is no longer valid", "08003");
    }
  }

  private void dispatch(PGNotification[] received) {
    boolean wake = false;
    boolean worker = false;
    for (PGNotification n : received) {
      if (wakeChannel.name().equals(n.getName())) {
        wake = true;
        if (PausedTargets.NOTIFY_PAYLOAD.equals(n.getParameter())) {
          onPauseChange.run();
        }
        wakeNotifications.incrementAndGet();
      } else if (workerChannel.name().equals(n.getName())) {
        worker = true;
      }
    }
    if (wake) {
      onWake.run();
    }
    if (worker) {
      onWorkerMessage.run();
    }
  }

  private void sleep(Duration delay) {
    try {
      stopSignal.await(delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
    }
  }

  /**
   * Cuts the listen connection under a loop stuck on a server that does not answer (part of a
   * bounded close, R1): the loop sees the connection fail and, stopped, ends.
   */
  public void abort() {
    Connection c = current;
    if (c != null) {
      try {
        c.abort(Runnable::run);
      } catch (SQLException | RuntimeException e) {
        LOG.debug("aborting the listen connection failed: {}", e.toString());
      }
    }
  }

  /** Asks the loop to end; it does within a quarter of a second. */
  public void stop() {
    stopped = true;
    stopSignal.countDown();
  }

  /** Notifications received on the wake channel so far. */
  public long wakeNotifications() {
    return wakeNotifications.get();
  }

  /** Successful (re)connects so far. */
  public long connects() {
    return connects.get();
  }
}
