package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.bulk.CancelResult;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.postgres.testing.Notifications;
import io.taskq.postgres.testing.ScratchDatabase;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("M6")
@Tag("M3")
class SchemaIsolationTest {
  private static SchemaName a;
  private static SchemaName b;
  private static JobsClient inA;
  private static JobsClient inB;
  private static Db db;

  @BeforeAll
  static void migrateTwoSchemas(TestServices services) {
    db = new Db(services.dataSource());
    a = SchemaName.of(services.schema());
    b = SchemaName.of(Db.uniqueName(services.schema() + "_b"));
    Migrations.apply(services.dataSource(), a);
    Migrations.apply(services.dataSource(), b);
    // Identity values are per table: move B's far away so an id of A can never exist in B.
    db.execute("ALTER TABLE " + b.quoted() + ".jobs ALTER COLUMN id RESTART WITH 1000000000");
    inA = JobsClient.create(services.dataSource(), a);
    inB = JobsClient.create(services.dataSource(), b);
  }

  @AfterAll
  static void dropSecondSchema() {
    db.dropSchema(b.value());
  }

  @Test
  void jobsOfOneSchema_areInvisibleToTheOther() {
    long onlyInA = inA.enqueue(JobRequest.of("a_only", "{}"));

    assertThat(inB.find(onlyInA)).isEmpty();
    assertThat(inB.cancel(onlyInA)).isEqualTo(CancelResult.NOT_FOUND);
    assertThat(inA.find(onlyInA).orElseThrow().status()).isEqualTo(JobStatus.PENDING);
    assertThat(db.queryLong("SELECT count(*) FROM " + b.quoted() + ".jobs WHERE actor = 'a_only'"))
        .isZero();
  }

  @Test
  @Tag("L6")
  void uniqueKeys_areSeparatePerSchema() {
    JobRequest unique =
        JobRequest.builder("report").uniqueFor(Duration.ofHours(1), "tenant-1").build();

    inA.enqueue(unique);
    inB.enqueue(unique);

    assertThat(db.queryLong("SELECT count(*) FROM " + a.quoted() + ".jobs WHERE actor = 'report'"))
        .isOne();
    assertThat(db.queryLong("SELECT count(*) FROM " + b.quoted() + ".jobs WHERE actor = 'report'"))
        .isOne();
  }

  @Test
  @Tag("M2")
  void wakeUpsOfOneSchema_areNeverHeardByTheOther(TestServices services) throws Exception {
    String channelB = NotifyChannels.of(b).wake().name();
    assertThat(channelB).isNotEqualTo(NotifyChannels.of(a).wake().name());
    try (Notifications listenerOfB = Notifications.listen(services.dataSource(), channelB)) {
      inA.enqueue(JobRequest.builder("x").queue("from_a").build());
      inB.enqueue(JobRequest.builder("x").queue("from_b").build());

      List<String> heard = listenerOfB.receiveUntil(channelB + ":from_b");

      assertThat(heard).containsExactly(channelB + ":from_b");
    }
  }

  @Test
  void oddSchemaNames_workEndToEnd(TestServices services) throws Exception {
    try (ScratchDatabase scratch = ScratchDatabase.create(services.jdbcUrl())) {
      for (String name : List.of("My-Schema", "a b", "user")) {
        SchemaName odd = SchemaName.of(name);
        Migrations.apply(scratch.dataSource(), odd);
        JobsClient client = JobsClient.create(scratch.dataSource(), odd);

        long id =
            client.enqueue(JobRequest.builder("act").uniqueFor(Duration.ofMinutes(1), "k").build());

        assertThat(
                client.enqueue(
                    JobRequest.builder("act").uniqueFor(Duration.ofMinutes(1), "k").build()))
            .as(name)
            .isEqualTo(id);
        assertThat(client.find(id).orElseThrow().status()).as(name).isEqualTo(JobStatus.PENDING);
        assertThat(client.cancel(id)).as(name).isEqualTo(CancelResult.CANCELLED);
      }
    }
  }
}
