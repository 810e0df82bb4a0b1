package io.taskq.postgres.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.AutoExplain;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * X1 (V015): a claim starts its scan at the pair's floor, so it does not read the claim-index
 * entries of the jobs taken before it (they stay until VACUUM), and the floor never passes a
 * pending job: every way a job becomes pending below it lowers it, and a raise waits out the
 * writers that could not see it. Each test has its own schema, so a pair's floor is its own; the
 * claims are the worker's own statement ({@code claim.sql}), run in autocommit as the worker runs
 * them.
 */
@TaskQTest
@Tag("X1")
class ClaimFloorTest {
  /** Claim order: priority, then run_at, then id. */
  private static final Comparator<Claimed> CLAIM_ORDER =
      Comparator.comparingInt(Claimed::priority)
          .thenComparing(Claimed::runAt)
          .thenComparingLong(Claimed::id);

  private static final Pattern BUFFERS =
      Pattern.compile("Buffers: shared(?: hit=(\\d+))?(?: read=(\\d+))?");

  private SchemaName schema;
  private DataSource ds;
  private Db db;

  @BeforeEach
  void migrate(TestServices services) {
    schema = SchemaName.of(services.schema());
    ds = services.dataSource();
    db = new Db(ds);
    Migrations.apply(ds, schema);
    // The schema is the class's: every test starts from an empty table (and an empty claim index)
    // whose ids start at 1, and no pair has a floor yet.
    db.execute(sql("TRUNCATE {schema}.jobs, {schema}.claim_floor RESTART IDENTITY CASCADE"));
  }

  @Test
  void afterManyJobsWereTaken_thePickReadsOnlyTheLiveEntries() throws SQLException {
    insertPending(60_000);
    db.execute("VACUUM ANALYZE " + table("jobs"));

    claimUntilTaken(50_000, new String[] {"default"}, new String[] {"a"}, 500);
    long firstLeft =
        db.queryLong(sql("SELECT min(id) FROM {schema}.jobs WHERE status = 'pending'"));
    // One raise is three steps, at most one per 50 ms; a few more claims finish the one under way.
    awaitClaiming(() -> floorId() >= firstLeft - 500);

    String floored = explainPick();
    String fromTheStart =
        explain(
            sql(
                "SELECT j.id FROM {schema}.jobs j WHERE j.status = 'pending' AND j.queue = 'default'"
                    + " AND j.actor = 'a' AND j.run_at <= statement_timestamp()"
                    + " ORDER BY j.priority, j.run_at, j.id LIMIT 128 FOR UPDATE SKIP LOCKED"));

    // The 50 000 taken jobs' entries are killed (the claims' scans marked them) but still on their
    // pages: from the start of the range a pick walks some hundred pages of them.
    assertThat(buffers(fromTheStart)).as(fromTheStart).isGreaterThan(200);
    assertThat(buffers(floored)).as(floored).isLessThan(40);
    assertThat(claim(10)).hasSize(10).allSatisfy(id -> assertThat(id).isGreaterThan(50_000L));
  }

  @Test
  void jobsThatBecomePendingBelowTheFloor_lowerIt_andAreClaimedFirst() throws Exception {
    insertPending(2_500);
    pairRow();
    take(2_000);
    stepUntil(() -> stage() == 0 && floorId() == 2_001);

    // A running job put back as S1 puts it (keeping its place), then an enqueue of an earlier
    // priority, one of a past run_at, and a row through COPY of an earlier priority still.
    long reclaimed = 7;
    db.update(
        sql(
            "UPDATE {schema}.jobs SET status = 'pending', locked_by = NULL,"
                + " lock_expires_at = NULL, lease_token = NULL WHERE id = ?"),
        reclaimed);
    assertThat(effectiveFloorId()).isEqualTo(reclaimed);
    long urgent = insertOne("-1", "now()");
    long late = insertOne("0", "'2019-12-31'");
    long copied = copyOne("-2");

    // The floor as a claim reads it is the lowest key logged (claim_floor_low); a job that sorts
    // above a logged one (late, above urgent) logs nothing.
    assertThat(effectiveFloorId()).isEqualTo(copied);
    assertThat(db.queryColumn(sql("SELECT id FROM {schema}.claim_floor_low ORDER BY id")))
        .containsExactly(reclaimed, urgent, copied);
    assertThat(claim(5)).containsExactly(copied, urgent, late, reclaimed, 2_001L);

    // The next raise takes the logged keys out and puts the floor above the five claimed.
    stepUntil(() -> stage() == 0 && floorId() == 2_002);
    assertThat(db.queryColumn(sql("SELECT id FROM {schema}.claim_floor_low"))).isEmpty();
  }

  @Test
  void aWriterWhoseSnapshotPredatesTheProposal_holdsTheRaiseUntilItCommits() throws Exception {
    insertPending(1_000);
    try (Connection writer = ds.getConnection()) {
      writer.setAutoCommit(false);
      writer.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try (Statement s = writer.createStatement()) {
        // The writer's snapshot is taken now, before the pair has a row: it sees no floor at all.
        s.executeQuery(sql("SELECT count(*) FROM {schema}.claim_floor")).close();
      }
      pairRow();
      take(100);
      stepUntil(() -> stage() == 1);
      assertThat(propId()).isEqualTo(101);
      for (int n = 0; n < 5; n++) {
        step();
      }
      assertThat(stage()).as("the raise waits for the writer's snapshot").isEqualTo(1);

      // Below the proposal, above the floor the writer sees (none).
      long hidden =
          insertOne(writer, "0", "'2020-01-01'::timestamptz + interval '50.5 milliseconds'");
      writer.commit();

      stepUntil(() -> stage() == 0 && floorId() != Long.MIN_VALUE);
      assertThat(floorId()).isEqualTo(hidden);
      assertThat(claim(2)).containsExactly(hidden, 101L);
    }
  }

  @Test
  void aWriterThatInsertedBeforeTheProposal_holdsTheRaiseUntilItsTransactionEnds()
      throws Exception {
    insertPending(1_000);
    pairRow();
    take(100);
    stepUntil(() -> stage() == 0 && floorId() == 101);
    try (Connection writer = ds.getConnection()) {
      writer.setAutoCommit(false);
      // Above the floor, so the writer's trigger writes nothing; its statement is over (READ
      // COMMITTED holds no snapshot after it), its transaction open.
      long hidden =
          insertOne(writer, "0", "'2020-01-01'::timestamptz + interval '600.5 milliseconds'");
      take(800);
      stepUntil(() -> stage() == 1);
      assertThat(propId()).isEqualTo(801);
      // In a quiet database the raise passes the snapshot step (no statement is running) and waits
      // at the horizon; in a busy one every running statement's xmin is at most the writer's
      // transaction id, and it waits at the snapshot step. Either way it is not applied.
      for (int n = 0; n < 6; n++) {
        step();
      }
      assertThat(stage()).as("the raise waits for the writer's transaction").isIn(1L, 2L);
      assertThat(floorId()).isEqualTo(101);
      writer.commit();

      stepUntil(() -> stage() == 0);
      assertThat(floorId()).isEqualTo(hidden);
      assertThat(claim(2)).containsExactly(hidden, 801L);
    }
  }

  @Test
  void aWriterThatSeesTheProposal_lowersItItself() throws SQLException {
    insertPending(1_000);
    pairRow();
    take(100);
    stepUntil(() -> stage() == 1);
    assertThat(propId()).isEqualTo(101);

    long below = insertOne("0", "'2020-01-01'::timestamptz + interval '50.5 milliseconds'");

    assertThat(db.queryColumn(sql("SELECT id FROM {schema}.claim_floor_low")))
        .containsExactly(below);
    stepUntil(() -> stage() == 0);
    assertThat(floorId()).isEqualTo(below);
    assertThat(claim(2)).containsExactly(below, 101L);
  }

  @Test
  void severalPairs_eachRaisesItsOwnFloor() {
    insertPending("a", 1_000);
    insertPending("b", 1_000);
    String[] queues = {"default"};
    String[] actors = {"a", "b"};
    claimUntilTaken(1_200, queues, actors, 100);
    // The merge takes both actors' jobs in claim order, so about 600 of each.
    awaitClaiming(() -> floorOf("a") > 400 && floorOf("b") > 1_400, () -> claim(queues, actors, 1));
    assertThat(claim(queues, actors, 2)).hasSize(2);
  }

  @Test
  void aClaimOfManyPairs_takesAtMostFourSteps() {
    String[] actors = {"a", "b", "c", "d", "e", "f"};
    for (String actor : actors) {
      insertPending(actor, 10);
    }

    assertThat(claim(new String[] {"default"}, actors, 6)).hasSize(6);

    // The claim made a row for each of the six pairs and stepped four of them.
    assertThat(db.queryLong(sql("SELECT count(*) FROM {schema}.claim_floor"))).isEqualTo(6);
    assertThat(
            db.queryLong(
                sql("SELECT count(*) FROM {schema}.claim_floor WHERE checked_at > '-infinity'")))
        .isEqualTo(4);
  }

  // --- the claims and what they leave

  private List<Long> claim(int limit) {
    return claim(new String[] {"default"}, new String[] {"a"}, limit);
  }

  private List<Long> claim(String[] queues, String[] actors, int limit) {
    String sql = NamedStatements.load("io/taskq/postgres/sql/claim.sql", schema).get("claim");
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      Array q = c.createArrayOf("text", queues);
      Array a = c.createArrayOf("text", actors);
      ps.setArray(1, q);
      ps.setArray(2, a);
      ps.setInt(3, limit);
      ps.setString(4, "w1");
      ps.setLong(5, 600_000);
      // The claim's own RETURNING gives each job's key: its ids in claim order.
      List<Claimed> claimed = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          claimed.add(
              new Claimed(rs.getInt("priority"), rs.getTimestamp("run_at"), rs.getLong("id")));
        }
      }
      claimed.sort(CLAIM_ORDER);
      return claimed.stream().map(Claimed::id).toList();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private record Claimed(int priority, Timestamp runAt, long id) {}

  /**
   * Claims batches (a pause between them, so the floor's steps come) until {@code n} were taken.
   */
  private void claimUntilTaken(int n, String[] queues, String[] actors, int batch) {
    long deadline = System.nanoTime() + 60_000_000_000L;
    int taken = 0;
    while (taken < n) {
      assertThat(System.nanoTime()).as("claims took %d of %d jobs", taken, n).isLessThan(deadline);
      taken += claim(queues, actors, batch).size();
      pause(10);
    }
  }

  /** The pair's row, as its first claim makes it: the lowest floor, no raise under way. */
  private void pairRow() {
    db.update(sql("INSERT INTO {schema}.claim_floor (queue, actor) VALUES ('default', 'a')"));
  }

  /**
   * Makes the pending jobs up to {@code lastId} running, as claims do (their claim-index entries
   * stay behind), without a claim's step of the floor: the tests below take each step themselves.
   */
  private void take(long lastId) {
    db.update(
        sql(
            "UPDATE {schema}.jobs SET status = 'running', attempt = 1, locked_by = 'w1',"
                + " lock_expires_at = now() + interval '1 hour', lease_token = id"
                + " WHERE id <= ? AND status = 'pending'"),
        lastId);
  }

  /** One step of the pair's raise, once the last is 50 ms old, in its own transaction. */
  private void step() {
    pause(60);
    db.queryColumn(sql("SELECT {schema}.claim_floor_step('default', 'a')::text"));
  }

  private void stepUntil(BooleanSupplier done) {
    repeatUntil(done, this::step);
  }

  private void awaitClaiming(BooleanSupplier done) {
    awaitClaiming(done, () -> claim(1));
  }

  /** Claims one job every 60 ms (each claim drives a step) until {@code done}, for at most 10 s. */
  private void awaitClaiming(BooleanSupplier done, Runnable claimOne) {
    repeatUntil(
        done,
        () -> {
          claimOne.run();
          pause(60);
        });
  }

  /** Runs {@code action} until {@code done}, for at most 10 s. */
  private static void repeatUntil(BooleanSupplier done, Runnable action) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime()).as("the floor's raise did not get there").isLessThan(deadline);
      action.run();
    }
  }

  private long floorId() {
    return floorOf("a");
  }

  private long floorOf(String actor) {
    return db.queryLong(
        sql("SELECT floor_id FROM {schema}.claim_floor WHERE queue = 'default' AND actor = ?"),
        actor);
  }

  private long stage() {
    return db.queryLong(sql("SELECT stage FROM {schema}.claim_floor WHERE actor = 'a'"));
  }

  private long effectiveFloorId() {
    return db.queryLong(sql("SELECT floor_id FROM {schema}.claim_floor_of('default', 'a')"));
  }

  private long propId() {
    return db.queryLong(sql("SELECT prop_id FROM {schema}.claim_floor WHERE actor = 'a'"));
  }

  // --- writing jobs

  /** Pending jobs of actor a with ids 1..rows (each test has a fresh table), job n due at n ms. */
  private void insertPending(int rows) {
    insertPending("a", rows);
  }

  private void insertPending(String actor, int rows) {
    db.update(
        sql(
            "INSERT INTO {schema}.jobs (actor, queue, status, payload, run_at, max_attempts,"
                + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter)"
                + " SELECT ?, 'default', 'pending', '{}',"
                + " '2020-01-01'::timestamptz + n * interval '1 millisecond', 3, 'constant', 1, 1, 0"
                + " FROM generate_series(1, ?) AS n"),
        actor,
        rows);
  }

  private long insertOne(String priority, String runAt) throws SQLException {
    try (Connection c = ds.getConnection()) {
      return insertOne(c, priority, runAt);
    }
  }

  private long insertOne(Connection c, String priority, String runAt) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                sql(
                    "INSERT INTO {schema}.jobs (actor, queue, status, priority, payload, run_at,"
                        + " max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter)"
                        + " VALUES ('a', 'default', 'pending', "
                        + priority
                        + ", '{}', "
                        + runAt
                        + ", 3, 'constant', 1, 1, 0) RETURNING id"))) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private long copyOne(String priority) throws SQLException, java.io.IOException {
    try (Connection c = ds.getConnection()) {
      org.postgresql.copy.CopyManager copy =
          c.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      String row =
          "a\tdefault\tpending\t"
              + priority
              + "\t{}\t2000-01-01 00:00:00+00\t3\tconstant\t1\t1\t0\n";
      copy.copyIn(
          sql(
              "COPY {schema}.jobs (actor, queue, status, priority, payload, run_at, max_attempts,"
                  + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter) FROM STDIN"),
          new java.io.StringReader(row));
    }
    return db.queryLong(sql("SELECT max(id) FROM {schema}.jobs"));
  }

  // --- plans

  /** The picking statement inside claim_pick, as auto_explain saw it, rolled back. */
  private String explainPick() throws SQLException {
    String claim = NamedStatements.load("io/taskq/postgres/sql/claim.sql", schema).get("claim");
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        AutoExplain.enable(s);
        s.clearWarnings();
        try (PreparedStatement ps = c.prepareStatement(claim)) {
          ps.setArray(1, c.createArrayOf("text", new String[] {"default"}));
          ps.setArray(2, c.createArrayOf("text", new String[] {"a"}));
          ps.setInt(3, 128);
          ps.setString(4, "w1");
          ps.setLong(5, 600_000);
          ps.executeQuery().close();
          for (SQLWarning w = ps.getWarnings(); w != null; w = w.getNextWarning()) {
            String text = w.getMessage();
            if (text != null
                && text.contains("FOR UPDATE SKIP LOCKED")
                && text.contains("LIMIT p_limit")) {
              return text;
            }
          }
        }
        throw new AssertionError("auto_explain logged no pick");
      } finally {
        c.rollback();
      }
    }
  }

  private String explain(String query) throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + query)) {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
        return plan.toString();
      } finally {
        c.rollback();
      }
    }
  }

  /**
   * The buffers the scan of the claim index found in the cache or read (the Buffers line of its
   * node: the index pages and the heap pages it visited, not the row locks above it).
   */
  private static long buffers(String plan) {
    int scan = plan.indexOf("Index Scan using jobs_claim_queue_idx");
    assertThat(scan).as(plan).isNotNegative();
    Matcher m = BUFFERS.matcher(plan);
    assertThat(m.find(scan)).as(plan).isTrue();
    long total = 0;
    for (int g = 1; g <= 2; g++) {
      total += m.group(g) == null ? 0 : Long.parseLong(m.group(g));
    }
    return total;
  }

  private String table(String name) {
    return schema.quoted() + "." + name;
  }

  private String sql(String text) {
    return NamedStatements.substitute(text, schema);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
