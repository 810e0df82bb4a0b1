package io.taskq.postgres.internal.lease;

import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.SqlErrors;
import io.taskq.postgres.internal.WorkerIdentity;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.RunningJob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's heartbeat (L10, L4): every tick, one statement refreshes the worker's row and renews
 * the lease of every attempt it holds, fenced on each attempt's token (D9).
 *
 * <p>The statement returns the leases it renewed with their cancel flags, which is how a running
 * handler learns of a cancel (L8): the flag turns on in its {@link RunningJob}. A tick can also be
 * asked for at once ({@link #tickSoon()}), which the listener does when a message arrives on this
 * worker's channel, so a cancel reaches the handler within a round trip rather than a heartbeat
 * interval. An attempt whose lease was not renewed although its handler still runs has been taken
 * away (the worker was paused past its lease and the job reclaimed): its cancel flag is turned on
 * too, so the handler can stop; its outcome will be fenced off anyway.
 *
 * <p>A failed tick is logged and the next one tries again; if ticks keep failing for a whole lease
 * period the leases lapse and the sweep reclaims the jobs, which is the point of a lease.
 */
public final class Heartbeat {
  private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);

  private final DataSource dataSource;
  private final String sql;
  private final WorkerIdentity identity;
  private final long leaseMillis;
  private final InFlight inFlight;
  private final FencedWrites fenced;
  private final FaultSeam seam;
  private final AtomicBoolean tickRequested = new AtomicBoolean();
  private final AtomicLong ticks = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private @Nullable ScheduledExecutorService scheduler;
  private @Nullable ScheduledFuture<?> schedule;

  public Heartbeat(
      DataSource dataSource,
      NamedStatements statements,
      WorkerIdentity identity,
      Duration leasePeriod,
      InFlight inFlight,
      FencedWrites fenced,
      FaultSeam seam) {
    this.dataSource = dataSource;
    this.sql = statements.get("heartbeat");
    this.identity = identity;
    this.leaseMillis = leasePeriod.toMillis();
    this.inFlight = inFlight;
    this.fenced = fenced;
    this.seam = seam;
  }

  /** Ticks every {@code interval} on {@code scheduler} until {@link #stop()}. */
  public synchronized void start(ScheduledExecutorService scheduler, Duration interval) {
    this.scheduler = scheduler;
    long millis = interval.toMillis();
    this.schedule =
        scheduler.scheduleWithFixedDelay(this::safeTick, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Runs a tick as soon as the scheduler is free; requests made meanwhile fold into it. */
  public synchronized void tickSoon() {
    ScheduledExecutorService s = scheduler;
    if (s != null && tickRequested.compareAndSet(false, true)) {
      try {
        s.execute(
            () -> {
              tickRequested.set(false);
              safeTick();
            });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        tickRequested.set(false);
      }
    }
  }

  /** Stops ticking (a tick in progress completes). */
  public synchronized void stop() {
    ScheduledFuture<?> s = schedule;
    if (s != null) {
      s.cancel(false);
    }
    scheduler = null;
  }

  private void safeTick() {
    try {
      tick();
      if (failures.getAndSet(0) > 0) {
        LOG.info("heartbeat works again");
      }
    } catch (SQLException | RuntimeException e) {
      if (failures.incrementAndGet() == 1) {
        LOG.warn(
            "heartbeat failed (SQLSTATE {}); leases are not being renewed: {}",
            e instanceof SQLException sql ? SqlErrors.state(sql) : "-",
            e.toString());
      } else {
        LOG.debug("heartbeat failed again: {}", e.toString());
      }
    }
  }

  /** One heartbeat: refresh the worker row, renew the held leases, read their cancel flags. */
  public void tick() throws SQLException {
    seam.check();
    List<RunningJob> held = inFlight.all();
    Map<Long, Boolean> renewed = renew(held);
    ticks.incrementAndGet();
    for (RunningJob job : held) {
      Boolean cancel = renewed.get(job.leaseToken());
      if (cancel == null) {
        lost(job);
      } else if (cancel) {
        job.requestCancel();
      }
    }
  }

  private Map<Long, Boolean> renew(List<RunningJob> held) throws SQLException {
    Long[] ids = new Long[held.size()];
    Long[] tokens = new Long[held.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = held.get(i).jobId();
      tokens[i] = held.get(i).leaseToken();
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      c.setAutoCommit(true);
      s.setString(1, identity.id());
      s.setString(2, identity.hostname());
      s.setLong(3, identity.pid());
      s.setArray(4, c.createArrayOf("text", identity.queues().toArray()));
      s.setInt(5, identity.concurrency());
      s.setArray(6, c.createArrayOf("bigint", ids));
      s.setArray(7, c.createArrayOf("bigint", tokens));
      s.setLong(8, leaseMillis);
      s.setString(9, identity.id());
      try (ResultSet rs = s.executeQuery()) {
        return renewed(rs);
      }
    }
  }

  /** The lease tokens renewed, each with whether its job was asked to cancel. */
  private static Map<Long, Boolean> renewed(ResultSet rs) throws SQLException {
    Map<Long, Boolean> renewed = new HashMap<>();
    while (rs.next()) {
      renewed.put(rs.getLong("lease_token"), rs.getBoolean("cancel_requested"));
    }
    return renewed;
  }

  private void lost(RunningJob job) {
    // Only a handler still running can have lost its lease: a finished attempt may simply have
    // been recorded between the snapshot and the statement.
    if (job.isRunning() && inFlight.contains(job)) {
      job.requestCancel();
      fenced.report("renewing the lease", job.jobId(), job.leaseToken());
    }
  }

  /** Ticks that succeeded so far. */
  public long ticks() {
    return ticks.get();
  }
}
