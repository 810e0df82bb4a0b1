package io.taskq.postgres.internal.dispatch;

import io.taskq.postgres.internal.Backoff;
import io.taskq.postgres.internal.SqlErrors;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim loop (L4): waits on the {@link ClaimGate}, claims a batch with one statement, launches
 * each claimed job's handler, and again.
 *
 * <p>A failed claim (the database away, a pool timeout) returns its reserved slots and is retried
 * after an exponential backoff from 50 ms to 5 s; the loop never dies of a database error. Jobs the
 * handler executor refuses are handed back, and the next claim waits for the same backoff, so a
 * saturated executor does not turn into a claim-and-release spin. It ends when the gate is stopped,
 * after launching whatever the claim in progress returned, so no claimed job is ever dropped on the
 * floor.
 *
 * <p>Paused queues and actors (A4, {@link PausedTargets}) are left out of the bound arrays of each
 * claim; when nothing this worker serves is left, it claims nothing until the next poll or wake.
 */
public final class Dispatcher implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  private final ClaimGate gate;
  private final JobClaimer claimer;
  private final JobLauncher launcher;
  private final List<String> queues;
  private final List<String> actors;
  private final @Nullable PausedTargets paused;
  private final Backoff backoff = new Backoff(Duration.ofMillis(50), Duration.ofSeconds(5));
  private final Backoff refusals = new Backoff(Duration.ofMillis(50), Duration.ofSeconds(5));

  public Dispatcher(
      ClaimGate gate,
      JobClaimer claimer,
      JobLauncher launcher,
      List<String> queues,
      List<String> actors) {
    this(gate, claimer, launcher, queues, actors, null);
  }

  /** A dispatcher that leaves the queues and actors {@code paused} names out of its claims (A4). */
  public Dispatcher(
      ClaimGate gate,
      JobClaimer claimer,
      JobLauncher launcher,
      List<String> queues,
      List<String> actors,
      @Nullable PausedTargets paused) {
    this.gate = gate;
    this.paused = paused;
    this.claimer = claimer;
    this.launcher = launcher;
    this.queues = List.copyOf(queues);
    this.actors = List.copyOf(actors);
  }

  @Override
  public void run() {
    try {
      while (claimOnce()) {
        // claims until the gate stops
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.debug("dispatcher stopped");
  }

  /** One turn of the loop; false once the gate is stopped. */
  boolean claimOnce() throws InterruptedException {
    int slots = gate.awaitClaim();
    if (slots == 0) {
      return false;
    }
    List<String> claimQueues = paused == null ? queues : paused.unpausedQueues(queues);
    List<String> claimActors = paused == null ? actors : paused.unpausedActors(actors);
    if (claimQueues.isEmpty() || claimActors.isEmpty()) {
      // A4: everything this worker serves is paused: no claim until a poll or a wake-up.
      gate.claimed(slots, 0);
      return true;
    }
    List<ClaimedJob> jobs;
    try {
      long started = System.nanoTime();
      jobs = claimer.claim(claimQueues, claimActors, slots);
      gate.noteClaimRoundTrip(System.nanoTime() - started);
    } catch (SQLException | RuntimeException e) {
      gate.claimFailed(slots);
      return !gate.awaitStop(retryDelay(e));
    }
    if (backoff.failures() > 0) {
      LOG.info("claiming works again after {} failed attempts", backoff.failures());
      backoff.reset();
    }
    gate.claimed(slots, jobs.size());
    int refused = 0;
    for (ClaimedJob job : jobs) {
      refused += launcher.launch(job) ? 0 : 1;
    }
    if (refused == 0) {
      refusals.reset();
      return true;
    }
    return !gate.awaitStop(refusedDelay(refused));
  }

  /** The executor refused jobs (they went back to the queue): claim again only after a pause. */
  private Duration refusedDelay(int refused) {
    Duration delay = refusals.next();
    if (refusals.failures() == 1) {
      LOG.warn(
          "the handler executor refused {} jobs; they were handed back; claiming again in {}",
          refused,
          delay);
    }
    return delay;
  }

  private Duration retryDelay(Exception e) {
    Duration delay = backoff.next();
    String state = e instanceof SQLException sql ? SqlErrors.state(sql) : "-";
    if (backoff.failures() == 1) {
      LOG.warn("claim failed (SQLSTATE {}); retrying with backoff: {}", state, e.toString());
    } else {
      LOG.debug("claim failed again (SQLSTATE {}), retry in {}: {}", state, delay, e.toString());
    }
    return delay;
  }
}
