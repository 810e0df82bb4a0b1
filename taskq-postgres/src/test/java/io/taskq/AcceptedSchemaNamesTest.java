package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R3 (M3): every schema name {@link SchemaName} accepts migrates and runs a job. Names are drawn
 * from the whole accepted alphabet (every printable ASCII character but the double quote and the
 * colon, spaces, non-ASCII letters, a character outside the BMP) plus the names that once broke:
 * dollar signs (spliced into a {@code $$} function body), single quotes (spliced into a {@code
 * nextval('...')} literal), comment openers. The seed is printed so a failure can be replayed with
 * {@code -Dtaskq.test.seed=N}.
 */
@TaskQTest
@Tag("R3")
@Tag("M3")
class AcceptedSchemaNamesTest {
  private static final String ALPHABET;

  static {
    StringBuilder chars = new StringBuilder();
    for (char c = 0x20; c < 0x7f; c++) {
      if (c != '"' && c != ':') {
        chars.append(c);
      }
    }
    chars.append("éßЖ日\u00a0\u200b");
    ALPHABET = chars.toString();
  }

  private static final List<String> ONCE_BROKEN =
      List.of("a$$b", "$$", "a$_tq0$b", "$body$", "it's", "a*/b", "x--y", "{schema}", "Sch \\ 😀");

  @Test
  void everyAcceptedName_migratesAndRunsAJob(TestServices services) throws Exception {
    long seed = Long.getLong("taskq.test.seed", System.nanoTime());
    System.out.println("AcceptedSchemaNamesTest seed: " + seed);
    Random random = new Random(seed);
    List<String> names = new ArrayList<>(ONCE_BROKEN);
    for (int i = 0; i < 6; i++) {
      names.add(randomName(random, 1 + random.nextInt(20)));
    }
    names.add(longestName(random));
    Db db = new Db(services.dataSource());
    for (String name : names) {
      assertThat(SchemaName.problem(name)).as("generated name %s", name).isNull();
      try {
        migrateAndRun(services, name);
      } catch (Exception | AssertionError e) {
        throw new AssertionError("schema name '" + name + "' (seed " + seed + "): " + e, e);
      } finally {
        db.dropSchema(name);
      }
    }
  }

  private static void migrateAndRun(TestServices services, String name) throws Exception {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(name)
            .pollInterval(Duration.ofMillis(200))
            .shutdownGrace(Duration.ofSeconds(2))
            .build();
    try (TaskQ taskq = TaskQ.builder(services.dataSource()).config(config).build()) {
      taskq.register(Actor.rawJson("echo", (json, ctx) -> json));
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("echo", "{\"schema\": 1}"));
      await()
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  taskq.jobs().find(id).map(j -> j.status() == JobStatus.SUCCEEDED).orElse(false));
    }
  }

  private static String randomName(Random random, int length) {
    StringBuilder name = new StringBuilder();
    while (name.length() < length) {
      name.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      if (random.nextInt(8) == 0) {
        name.append("😀");
      }
    }
    String s = name.toString();
    return SchemaName.problem(s) == null ? s : "x" + s.substring(1);
  }

  /** A name of exactly 63 UTF-8 bytes, the most PostgreSQL keeps. */
  private static String longestName(Random random) {
    StringBuilder name = new StringBuilder("$");
    while (name.toString().getBytes(StandardCharsets.UTF_8).length < SchemaName.MAX_BYTES) {
      char c = ALPHABET.charAt(random.nextInt(95 - 2));
      name.append(c);
    }
    return name.toString();
  }
}
