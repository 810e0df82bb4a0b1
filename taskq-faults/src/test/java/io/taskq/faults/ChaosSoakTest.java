package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobRequest;
import io.taskq.operations.LeaderInfo;
import io.taskq.testing.servers.PrivatePgBouncer;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, the seeded chaos soak: three worker JVMs (one plain, one behind PgBouncer in transaction
 * mode, one whose clock is 5 minutes off, each rate-limited and reporting progress in Redis) under
 * a steady stream of jobs, and a random schedule of the faults of both groups, one at a time, drawn
 * in rounds (each round every fault once, in a shuffled order, so a long enough soak injects each):
 * worker SIGKILL (restarted after) and worker SIGSTOP past its lease, both while the victim runs
 * jobs (12 jobs of 1.5 s are enqueued first, and the fault waits until the victim runs one), a
 * burst of jobs (the claim race), the leader's lock backend terminated, PostgreSQL frozen,
 * PostgreSQL restarted immediately, a transaction pinning xmin, handlers' transactions ended by the
 * idle-in-transaction timeout, the listen sessions terminated, Redis frozen, Redis killed. Bounded
 * by a duration and a number of jobs (default 10 minutes and 50 000), whichever comes first; then
 * the queue drains and the invariant checker runs over every job. Jobs running on a killed or
 * frozen JVM must have been reclaimed, and a frozen one's late writes fenced.
 *
 * <p>The schedule comes from one seed, printed first ({@code chaos soak seed: N}); {@code
 * -Dtaskq.faults.seed=N} replays it (the faults, their order, victims and lengths; the timing of
 * the processes is not replayable). {@code -Dtaskq.faults.soak.duration=90s} and {@code
 * -Dtaskq.faults.soak.jobs=5000} bound it.
 */
@Tag("R7")
class ChaosSoakTest {
  static final String SEED = "taskq.faults.seed";
  static final String DURATION = "taskq.faults.soak.duration";
  static final String JOBS = "taskq.faults.soak.jobs";

  /** Only these faults (comma-separated names), to study one kind; all of them by default. */
  static final String ONLY = "taskq.faults.soak.faults";

  /** The faults the schedule draws from. */
  enum Fault {
    WORKER_KILL,
    WORKER_FREEZE,
    JOB_BURST,
    LEADER_BACKEND_TERMINATED,
    POSTGRES_FREEZE,
    POSTGRES_RESTART,
    XMIN_PIN,
    IDLE_IN_TRANSACTION,
    LISTENER_KILLED,
    REDIS_FREEZE,
    REDIS_KILL
  }

  private static final List<Fault> FAULTS = faults(System.getProperty(ONLY, ""));
  private static final Pattern WORKER_ID = Pattern.compile("worker=(\\S+)");
  private static final Duration RECOVERY_LIMIT = Duration.ofMinutes(2);

  @Test
  void aSeededRandomScheduleOfFaults_losesNoJobAndRunsNoneTwice() throws Exception {
    long seed = Long.getLong(SEED, new SecureRandom().nextLong());
    Duration duration = parse(System.getProperty(DURATION, "10m"));
    int budget = Integer.getInteger(JOBS, 50_000);
    FaultCluster.report("chaos soak seed: " + seed);
    System.out.printf(
        "chaos soak: %s, at most %d jobs; replay with -D%s=%d%n", duration, budget, SEED, seed);
    Random random = new Random(seed);
    try (FaultCluster cluster =
            FaultCluster.start("chaos-soak", "idle_in_transaction_session_timeout=2s");
        PrivatePgBouncer bouncer = PrivatePgBouncer.inFrontOf(cluster.postgres().port())) {
      Soak soak = new Soak(cluster, bouncer, random);
      soak.run(duration, budget);
    }
  }

  private static List<Fault> faults(String only) {
    if (only.isBlank()) {
      return List.of(Fault.values());
    }
    return java.util.Arrays.stream(only.split(",", -1))
        .map(name -> Fault.valueOf(name.trim().toUpperCase(java.util.Locale.ROOT)))
        .toList();
  }

  private static Duration parse(String text) {
    String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    if (t.endsWith("ms")) {
      return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
    }
    long n = Long.parseLong(t.substring(0, t.length() - 1));
    return switch (t.charAt(t.length() - 1)) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      default -> throw new IllegalArgumentException(DURATION + ": " + text + " (use 90s, 10m)");
    };
  }

  /** One soak: the worker slots, the producer thread, the fault loop and the figures. */
  private static final class Soak {
    private final FaultCluster cluster;
    private final PrivatePgBouncer bouncer;
    private final Random random;
    private final WorkerJvm[] slots = new WorkerJvm[3];
    private final int[] generation = new int[3];
    private final Map<Fault, Integer> injected = new EnumMap<>(Fault.class);
    private final Map<Fault, List<Long>> recoveries = new EnumMap<>(Fault.class);
    private final AtomicLong enqueued = new AtomicLong();
    private final AtomicLong enqueueFailures = new AtomicLong();
    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final List<Fault> round = new ArrayList<>();
    private final Map<String, List<Long>> killRecoveries = new LinkedHashMap<>();
    private long postgresFaultEndedAt = -1;
    private long runningAtKills;
    private long runningAtFreezes;

    Soak(FaultCluster cluster, PrivatePgBouncer bouncer, Random random) {
      this.cluster = cluster;
      this.bouncer = bouncer;
      this.random = random;
    }

    void run(Duration duration, int budget) throws Exception {
      for (int slot = 0; slot < slots.length; slot++) {
        slots[slot] = cluster.startWorker(name(slot), env(slot));
      }
      for (WorkerJvm w : slots) {
        w.awaitReady(Duration.ofMinutes(2));
      }
      long start = System.nanoTime();
      long end = start + duration.toNanos();
      Thread producer = new Thread(() -> produce(end, budget, duration), "soak-producer");
      producer.setDaemon(true);
      producer.start();
      try {
        while (System.nanoTime() < end - Duration.ofSeconds(10).toNanos() && producer.isAlive()) {
          FaultCluster.sleep(Duration.ofMillis(3000 + random.nextInt(7000)));
          Fault fault = nextFault();
          long recovery = inject(fault);
          injected.merge(fault, 1, Integer::sum);
          recoveries.computeIfAbsent(fault, f -> new ArrayList<>()).add(recovery);
          System.out.printf(
              "chaos soak %.0f s: %s, recovery %d ms%n",
              (System.nanoTime() - start) / 1e9, fault, recovery);
        }
      } finally {
        producing.set(false);
        producer.join(Duration.ofSeconds(30).toMillis());
      }
      long faultsEnded = System.nanoTime();
      List<Long> ids = allJobIds();
      Duration drained = cluster.awaitDrained(ids, Duration.ofMinutes(5));
      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(ids);
      FaultCluster.report(
          f.line(
              "chaos soak",
              String.format(
                  "%d s, %d faults injected %s, recovery ms (min/median/max) %s, jobs running on"
                      + " the victim at the kills %d, at the freezes %d, enqueue calls"
                      + " that failed during faults %d, drained %d ms after the last fault,"
                      + " WORKER_KILL recovery ms by the victim and the leader %s",
                  (faultsEnded - start) / 1_000_000_000L,
                  injected.values().stream().mapToInt(Integer::intValue).sum(),
                  injected,
                  summary(),
                  runningAtKills,
                  runningAtFreezes,
                  enqueueFailures.get(),
                  drained.toMillis(),
                  summary(killRecoveries))));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice at one attempt or succeeded twice").isZero();
      assertThat(ids.size()).as("jobs enqueued").isGreaterThan(0);
      if (runningAtKills > 0) {
        assertThat(f.reclaimed())
            .as("jobs reclaimed (%d were running on killed JVMs)", runningAtKills)
            .isPositive();
      }
      if (runningAtFreezes > 0) {
        assertThat(f.fencedWrites())
            .as("fenced writes (%d jobs were running on frozen JVMs)", runningAtFreezes)
            .isPositive();
      }
      if (injected.values().stream().mapToInt(Integer::intValue).sum() >= FAULTS.size()) {
        assertThat(injected.keySet()).as("fault kinds injected").hasSize(FAULTS.size());
      }
    }

    /** The next fault: each round is every fault once, in an order the seed shuffles. */
    private Fault nextFault() {
      if (round.isEmpty()) {
        round.addAll(FAULTS);
        Collections.shuffle(round, random);
      }
      return round.remove(0);
    }

    // ---- workers ----

    private static String name(int slot) {
      return switch (slot) {
        case 0 -> "plain";
        case 1 -> "pooled";
        default -> "skewed";
      };
    }

    private Map<String, String> env(int slot) {
      Map<String, String> env = new LinkedHashMap<>();
      env.put("FAULTS_REDIS", "true");
      env.put("TASKQ_REDIS_COMMAND_TIMEOUT", "500ms");
      if (slot == 1) {
        env.put("TASKQ_DATABASE_URL", bouncer.jdbcUrl("postgres"));
        env.put("TASKQ_DATABASE_DIRECT_URL", cluster.postgres().jdbcUrl());
      } else if (slot == 2) {
        env.putAll(Skew.env(Duration.ofMinutes(random.nextBoolean() ? 5 : -5)));
      }
      return env;
    }

    /**
     * Starts a new worker JVM in {@code slot}, as an orchestrator would: a start that fails (right
     * after a PostgreSQL restart PgBouncer refuses logins for its {@code server_login_retry}, 15 s,
     * and TaskQ's start fails on it) is tried again, up to 5 times, 5 s apart.
     */
    private WorkerJvm restart(int slot) {
      for (int attempt = 1; ; attempt++) {
        generation[slot]++;
        WorkerJvm w = cluster.startWorker(name(slot) + generation[slot], env(slot));
        slots[slot] = w;
        try {
          return w.awaitReady(Duration.ofMinutes(2));
        } catch (AssertionError e) {
          if (attempt == 5) {
            throw e;
          }
          try {
            w.close();
          } catch (AssertionError gone) {
            System.out.println("chaos soak: " + w + " was already gone: " + gone.getMessage());
          }
          System.out.printf("chaos soak: %s failed to start, again in 5 s%n", w);
          FaultCluster.sleep(Duration.ofSeconds(5));
        }
      }
    }

    private static String workerId(WorkerJvm w) {
      try {
        for (String line : java.nio.file.Files.readAllLines(w.log())) {
          if (line.startsWith(FaultWorkerMain.READY)) {
            Matcher m = WORKER_ID.matcher(line);
            if (m.find()) {
              return m.group(1);
            }
          }
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      throw new AssertionError("no READY line in " + w.log());
    }

    // ---- the producer ----

    /**
     * Enqueues the budget evenly over the duration, sleep 0-20 ms each, in chunks of 4 a second.
     */
    private void produce(long end, int budget, Duration duration) {
      double perTick = Math.max(1.0, budget / ((double) duration.toMillis() / 250.0));
      Random jobs = new Random(random.nextLong());
      double owed = 0;
      while (producing.get() && System.nanoTime() < end && enqueued.get() < budget) {
        owed += perTick;
        int n = (int) Math.min(owed, (double) (budget - enqueued.get()));
        if (n > 0) {
          List<JobRequest> chunk = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            chunk.add(FaultActors.job(jobs.nextInt(21)));
          }
          try {
            cluster.producer().jobs().enqueueAll(chunk);
            enqueued.addAndGet(n);
            owed -= n;
          } catch (RuntimeException e) {
            // The database is frozen or restarting: the chunk may or may not have committed.
            // The checker counts the jobs table itself, so either way nothing escapes it.
            enqueueFailures.incrementAndGet();
          }
        }
        FaultCluster.sleep(Duration.ofMillis(250));
      }
    }

    // ---- the faults ----

    /** Injects {@code fault}, lifts it, and returns the recovery time in ms. */
    private long inject(Fault fault) throws Exception {
      return switch (fault) {
        case WORKER_KILL -> workerKill();
        case WORKER_FREEZE -> workerFreeze();
        case JOB_BURST -> jobBurst();
        case LEADER_BACKEND_TERMINATED -> leaderTerminated();
        case POSTGRES_FREEZE -> {
          cluster.postgres().freeze();
          FaultCluster.sleep(Duration.ofSeconds(5 + random.nextInt(26)));
          cluster.postgres().thaw();
          postgresFaultEndedAt = System.nanoTime();
          yield flowing();
        }
        case POSTGRES_RESTART -> {
          cluster.postgres().restartImmediately();
          postgresFaultEndedAt = System.nanoTime();
          yield flowing();
        }
        case XMIN_PIN -> xminPin();
        case IDLE_IN_TRANSACTION -> idleInTransaction();
        case LISTENER_KILLED -> {
          List<Integer> listeners = new ArrayList<>();
          for (WorkerJvm w : slots) {
            listeners.addAll(Sessions.listenBackends(cluster, w));
          }
          Sessions.terminate(cluster, listeners);
          yield flowing();
        }
        case REDIS_FREEZE -> {
          cluster.redis().freeze();
          FaultCluster.sleep(Duration.ofSeconds(3 + random.nextInt(10)));
          cluster.redis().thaw();
          yield flowing();
        }
        case REDIS_KILL -> {
          cluster.redis().kill();
          FaultCluster.sleep(Duration.ofSeconds(3 + random.nextInt(10)));
          cluster.redis().restart();
          yield flowing();
        }
      };
    }

    /**
     * SIGKILL a random worker while it runs jobs; recovery: until none of its jobs is still running
     * (reclaimed); restart it.
     */
    private long workerKill() {
      int slot = random.nextInt(slots.length);
      WorkerJvm victim = slots[slot];
      String id = workerId(victim);
      long running = busy(victim, id);
      runningAtKills += running;
      String leader = leaderName();
      long sincePostgres = postgresFaultEndedAt < 0 ? -1 : millisSince(postgresFaultEndedAt);
      victim.kill();
      long at = System.nanoTime();
      long leaseLeft = leaseLeftMillis(id);
      long newLeader = awaitReclaimed(victim, id, leader.equals(victim.name()), at);
      long recovery = millisSince(at);
      noteKill(new Kill(victim, leader, sincePostgres, running, leaseLeft, recovery, newLeader));
      restart(slot);
      return recovery;
    }

    /**
     * One kill: the leader then, how long after the last PostgreSQL fault it came (-1: none yet),
     * the jobs running on the victim, when their leases ended and they were reclaimed, and when
     * another JVM was seen leading (-1: the victim did not lead), in ms after the kill.
     */
    private record Kill(
        WorkerJvm victim,
        String leader,
        long sincePostgresMs,
        long running,
        long leaseLeftMs,
        long recoveryMs,
        long newLeaderMs) {
      /**
       * The split of the recoveries. A leader behind PgBouncer gets no connection for a while after
       * PostgreSQL came back (PgBouncer's server_login_retry), and reclaims only then.
       */
      String kind() {
        if (leader.equals(victim.name())) {
          return "victim led";
        }
        return leader.startsWith("pooled") ? "leader pooled" : "leader direct";
      }
    }

    /**
     * Waits until no job runs under the killed {@code victim}'s worker id; returns when another JVM
     * was first seen leading, in ms after {@code at}, if the victim {@code led} (else -1).
     */
    private long awaitReclaimed(WorkerJvm victim, String id, boolean led, long at) {
      long[] newLeaderAt = {-1};
      FaultCluster.await(
          () -> {
            if (led && newLeaderAt[0] < 0 && otherLeader(victim)) {
              newLeaderAt[0] = System.nanoTime();
            }
            return runningOn(id) == 0;
          },
          RECOVERY_LIMIT,
          "jobs of killed worker " + victim + " reclaimed");
      return newLeaderAt[0] < 0 ? -1 : (newLeaderAt[0] - at) / 1_000_000;
    }

    private void noteKill(Kill k) {
      killRecoveries.computeIfAbsent(k.kind(), kind -> new ArrayList<>()).add(k.recoveryMs());
      System.out.printf(
          "chaos soak: killed %s (leader: %s; %s) with %d jobs running, their leases ending %d"
              + " ms after the kill: reclaimed in %d ms%s%n",
          k.victim(),
          k.leader(),
          k.sincePostgresMs() < 0
              ? "no PostgreSQL fault yet"
              : k.sincePostgresMs() / 1000 + " s after the last PostgreSQL fault",
          k.running(),
          k.leaseLeftMs(),
          k.recoveryMs(),
          k.newLeaderMs() < 0 ? "" : ", a new leader seen after " + k.newLeaderMs() + " ms");
    }

    /** The leading worker JVM's name, "none" or "unknown" (the database does not answer). */
    private String leaderName() {
      try {
        return cluster.leader().map(WorkerJvm::name).orElse("none");
      } catch (RuntimeException e) {
        return "unknown";
      }
    }

    /** How long until the last lease of {@code workerId}'s running jobs ends (database clock). */
    private long leaseLeftMillis(String workerId) {
      try {
        return cluster.count(
            "SELECT COALESCE((extract(epoch FROM max(lock_expires_at) - clock_timestamp()) * 1000)"
                + "::bigint, 0) FROM taskq.jobs WHERE status = 'running' AND locked_by = '"
                + workerId.replace("'", "''")
                + "'");
      } catch (RuntimeException e) {
        return -1;
      }
    }

    private boolean otherLeader(WorkerJvm victim) {
      try {
        return cluster.leader().map(l -> l != victim).orElse(false);
      } catch (RuntimeException e) {
        return false;
      }
    }

    /**
     * SIGSTOP a random worker past its lease while it runs jobs, then SIGCONT; recovery: its jobs
     * reclaimed.
     */
    private long workerFreeze() {
      WorkerJvm victim = slots[random.nextInt(slots.length)];
      String id = workerId(victim);
      runningAtFreezes += busy(victim, id);
      victim.freeze();
      long at = System.nanoTime();
      try {
        FaultCluster.await(
            () -> runningOn(id) == 0,
            RECOVERY_LIMIT,
            "jobs of frozen worker " + victim + " reclaimed");
        FaultCluster.sleep(FaultCluster.LEASE.plusSeconds(random.nextInt(4)));
      } finally {
        victim.thaw();
      }
      return millisSince(at);
    }

    /**
     * Enqueues 12 jobs of 1.5 s (one per handler thread of the three JVMs) and waits, at most 30 s,
     * until {@code victim} runs at least one; returns how many run on it then (0 if none did).
     */
    private long busy(WorkerJvm victim, String id) {
      List<JobRequest> slow = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        slow.add(FaultActors.job(1500, 0));
      }
      retrying(() -> cluster.producer().jobs().enqueueAll(slow), "enqueue the slow jobs");
      try {
        FaultCluster.await(() -> runningOn(id) > 0, Duration.ofSeconds(30), "busy");
      } catch (AssertionError e) {
        System.out.printf("chaos soak: %s ran none of the slow jobs within 30 s%n", victim);
      }
      return Math.max(0, runningOn(id));
    }

    /** 2 000 jobs at once: every worker's claimers race for them. */
    private long jobBurst() {
      long at = System.nanoTime();
      cluster.awaitDrained(cluster.enqueue(2000, 0), RECOVERY_LIMIT.multipliedBy(2));
      return millisSince(at);
    }

    /** The leader's lock backend terminated; recovery: until a leader holds the lock again. */
    private long leaderTerminated() {
      Optional<LeaderInfo> leader = cluster.producer().operations().leader();
      if (leader.isEmpty()) {
        return flowing();
      }
      Sessions.terminate(cluster, List.of(leader.get().pid()));
      long at = System.nanoTime();
      FaultCluster.await(
          () -> {
            try {
              return cluster
                  .producer()
                  .operations()
                  .leader()
                  .map(l -> l.pid() != leader.get().pid())
                  .orElse(false);
            } catch (RuntimeException e) {
              return false;
            }
          },
          RECOVERY_LIMIT,
          "a new leader after the leader's backend was terminated");
      return millisSince(at);
    }

    /** A repeatable-read snapshot held for 10-30 s while jobs flow; recovery after its end. */
    private long xminPin() throws Exception {
      try (Connection pin = cluster.connect()) {
        try (Statement st = pin.createStatement()) {
          st.execute("SET idle_in_transaction_session_timeout = 0");
        }
        pin.setAutoCommit(false);
        pin.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try (Statement st = pin.createStatement();
            ResultSet rs = st.executeQuery("SELECT count(*) FROM taskq.jobs")) {
          rs.next();
        }
        FaultCluster.sleep(Duration.ofSeconds(10 + random.nextInt(21)));
        pin.rollback();
      }
      return flowing();
    }

    /** Five jobs whose first attempt leaves a transaction idle 3 s (the server ends it at 2 s). */
    private long idleInTransaction() {
      List<JobRequest> requests = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        requests.add(FaultActors.idleInTransaction(3000));
      }
      long at = System.nanoTime();
      cluster.awaitDrained(cluster.producer().jobs().enqueueAll(requests), RECOVERY_LIMIT);
      return millisSince(at);
    }

    /**
     * After a fault is lifted: the time until 10 new jobs of the first priority (ahead of any
     * backlog) have run, i.e. until the whole path (enqueue, wake-up or poll, claim, run, complete)
     * works again.
     */
    private long flowing() {
      long at = System.nanoTime();
      List<JobRequest> probes = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        probes.add(
            JobRequest.builder(FaultActors.WORK)
                .payloadJson("{\"sleepMs\": 0}")
                .priority(-1)
                .build());
      }
      List<Long> ids =
          retrying(() -> cluster.producer().jobs().enqueueAll(probes), "enqueue the probe jobs");
      cluster.awaitDrained(ids, RECOVERY_LIMIT);
      return millisSince(at);
    }

    private long runningOn(String workerId) {
      try {
        return cluster.count(
            "SELECT count(*) FROM taskq.jobs WHERE status = 'running' AND locked_by = '"
                + workerId.replace("'", "''")
                + "'");
      } catch (RuntimeException e) {
        return -1;
      }
    }

    private List<Long> allJobIds() throws Exception {
      return retrying(
          () -> {
            List<Long> ids = new ArrayList<>();
            try (Connection c = cluster.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM taskq.jobs ORDER BY id")) {
              while (rs.next()) {
                ids.add(rs.getLong(1));
              }
            } catch (java.sql.SQLException e) {
              throw new IllegalStateException(e);
            }
            return ids;
          },
          "read the job ids");
    }

    private static <T> T retrying(java.util.function.Supplier<T> action, String what) {
      long deadline = System.nanoTime() + RECOVERY_LIMIT.toNanos();
      while (true) {
        try {
          return action.get();
        } catch (RuntimeException e) {
          if (System.nanoTime() > deadline) {
            throw new AssertionError("could not " + what + " within " + RECOVERY_LIMIT, e);
          }
          FaultCluster.sleep(Duration.ofMillis(500));
        }
      }
    }

    private String summary() {
      return summary(recoveries);
    }

    /** Each key's min/median/max. */
    private static String summary(Map<?, List<Long>> values) {
      return values.entrySet().stream()
          .map(
              e -> {
                List<Long> sorted = new ArrayList<>(e.getValue());
                Collections.sort(sorted);
                return e.getKey()
                    + "="
                    + sorted.get(0)
                    + "/"
                    + sorted.get(sorted.size() / 2)
                    + "/"
                    + sorted.get(sorted.size() - 1);
              })
          .collect(Collectors.joining(", ", "{", "}"));
    }

    private static long millisSince(long nanos) {
      return (System.nanoTime() - nanos) / 1_000_000;
    }
  }
}
