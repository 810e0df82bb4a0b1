package io.taskq.postgres.internal.caps;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** S10: the per-worker eviction and reclaim drain against the real table. */
@TaskQTest
@Tag("S10")
@Tag("L7")
class KeyedReservationDrainTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final AtomicInteger borrowed = new AtomicInteger();
  private SchemaName schema;
  private DataSource real;
  private DataSource counting;

  @BeforeEach
  void setUp(TestServices services) throws SQLException {
    schema = SchemaName.of(services.schema());
    real = services.dataSource();
    Migrations.apply(real, schema);
    execute("TRUNCATE {schema}.reservation_slots, {schema}.jobs");
    counting =
        (DataSource)
            Proxy.newProxyInstance(
                DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("getConnection")) {
                    borrowed.incrementAndGet();
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = real.getConnection();
        Statement s = c.createStatement()) {
      s.execute(NamedStatements.substitute(sql, schema));
    }
  }

  private long count(String where) throws SQLException {
    try (Connection c = real.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                NamedStatements.substitute(
                    "SELECT count(*) FROM {schema}.reservation_slots WHERE " + where, schema))) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private KeyedReservationDrain drain(ReservationRegistry registry) {
    return new KeyedReservationDrain(
        counting,
        NamedStatements.load("io/taskq/postgres/sql/caps.sql", schema),
        registry,
        "worker-1");
  }

  @Test
  void withNothingPending_aTickBorrowsNoConnection() throws Exception {
    ReservationRegistry registry = new ReservationRegistry(10, Duration.ofMinutes(1), now::get);
    registry.touch(List.of(Scope.key("send", "a"), Scope.queue("emails")));
    KeyedReservationDrain drain = drain(registry);
    assertThat(drain.tick()).isZero();
    assertThat(drain.tick()).isZero();
    assertThat(borrowed).hasValue(0);
    assertThat(drain.drains()).isZero();
  }

  @Test
  void evictedKeys_loseTheirFreeRows_heldRowsAndOtherKeysStay() throws Exception {
    // send:a (evicted): slots 0 and 2 free, slot 1 held under a live lease, slot 3 held by a
    // holder whose lease passed. send:b (still registered) and an evicted queue keep everything.
    execute(
        "INSERT INTO {schema}.reservation_slots"
            + " (scope_kind, scope_name, slot, keyed, job_id, lease_token, lease_expires_at,"
            + " last_used_at) VALUES"
            + " ('key', 'send:a', 0, true, NULL, NULL, NULL, now() - interval '1 hour'),"
            + " ('key', 'send:a', 1, true, 7, 7, now() + interval '1 hour',"
            + "  now() - interval '1 hour'),"
            + " ('key', 'send:a', 2, true, NULL, NULL, NULL, now()),"
            + " ('key', 'send:a', 3, true, 8, 8, now() - interval '1 minute',"
            + "  now() - interval '1 hour'),"
            + " ('key', 'send:b', 0, true, NULL, NULL, NULL, now() - interval '1 hour'),"
            + " ('queue', 'emails', 0, false, NULL, NULL, NULL, now() - interval '1 hour')");
    InstantSource clock = now::get;
    ReservationRegistry registry = new ReservationRegistry(10, Duration.ofSeconds(30), clock);
    registry.touch(List.of(Scope.key("send", "a"), Scope.queue("emails")));
    now.updateAndGet(t -> t.plusSeconds(60));
    registry.touch(List.of(Scope.key("send", "b")));
    KeyedReservationDrain drain = drain(registry);

    assertThat(drain.tick()).isEqualTo(3); // slots 0 and 2, and 3 whose holder's lease passed
    assertThat(borrowed).hasValue(1);
    assertThat(count("scope_name = 'send:a'")).isEqualTo(1);
    assertThat(count("scope_name = 'send:a' AND slot = 1")).isEqualTo(1);
    assertThat(count("scope_name = 'send:b'")).isEqualTo(1);
    assertThat(count("scope_kind = 'queue'")).isEqualTo(1);
    assertThat(registry.pendingEvictions()).isEmpty();
    assertThat(registry.registryNames()).containsExactly("key:send:b");

    assertThat(drain.tick()).isZero();
    assertThat(borrowed).hasValue(1);
  }

  @Test
  void aKeyEvictedWhileThisWorkersJobHoldsItsSlot_staysPendingUntilTheJobIsDone() throws Exception {
    execute(
        "INSERT INTO {schema}.jobs (id, actor, queue, status, payload, run_at, max_attempts,"
            + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, locked_by,"
            + " lock_expires_at, lease_token) OVERRIDING SYSTEM VALUE VALUES (41, 'send', 'q',"
            + " 'running', '{}', now(), 3, 'constant', 1000, 1000, 0, 'worker-1',"
            + " now() + interval '1 hour', 9)");
    execute(
        "INSERT INTO {schema}.reservation_slots"
            + " (scope_kind, scope_name, slot, keyed, job_id, lease_token, lease_expires_at)"
            + " VALUES ('key', 'send:busy', 0, true, 41, 9, now() + interval '1 hour'),"
            + " ('key', 'send:busy', 1, true, NULL, NULL, NULL)");
    ReservationRegistry registry = new ReservationRegistry(1, Duration.ofMinutes(1), now::get);
    registry.touch(List.of(Scope.key("send", "busy"), Scope.key("send", "other")));
    KeyedReservationDrain drain = drain(registry);

    assertThat(drain.tick()).isEqualTo(1); // the free slot 1
    assertThat(registry.pendingEvictions()).containsExactly("send:busy");

    // The job finishes (its slot freed, as completion does); the next tick takes the last row.
    execute(
        "UPDATE {schema}.reservation_slots SET job_id = NULL, lease_token = NULL,"
            + " lease_expires_at = NULL");
    assertThat(drain.tick()).isEqualTo(1);
    assertThat(registry.pendingEvictions()).isEmpty();
    assertThat(count("true")).isZero();
    assertThat(drain.tick()).isZero();
    assertThat(borrowed).hasValue(2);
  }
}
