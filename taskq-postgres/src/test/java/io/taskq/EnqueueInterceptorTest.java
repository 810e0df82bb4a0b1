package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The enqueue interceptor's contract (P6): order, changed labels stored, misuse refused. */
@TaskQTest
@Tag("P6")
class EnqueueInterceptorTest {
  private final List<String> trail = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private EnqueueInterceptor label(String name) {
    return enqueue -> {
      trail.add(name + ">");
      List<JobRequest> stamped = new ArrayList<>();
      for (JobRequest r : enqueue.requests()) {
        Map<String, String> labels = new HashMap<>(r.labels());
        labels.put(name, "yes");
        stamped.add(r.toBuilder().labels(labels).build());
      }
      try {
        return enqueue.proceed(stamped);
      } finally {
        trail.add("<" + name);
      }
    };
  }

  @Test
  void interceptorsRunInOrder_andTheirLabelsAreStored(TestServices services) {
    JobsClient client =
        JobsClient.builder(services.dataSource(), SchemaName.of(services.schema()))
            .interceptEnqueue(label("a"))
            .interceptEnqueue(label("b"))
            .build();
    long id = client.enqueue(JobRequest.of("send", "{}"));
    assertThat(trail).containsExactly("a>", "b>", "<b", "<a");
    assertThat(client.find(id).orElseThrow().labels())
        .containsEntry("a", "yes")
        .containsEntry("b", "yes");
  }

  @Test
  void changingTheNumberOfJobs_orProceedingTwice_isRefused(TestServices services) {
    SchemaName schema = SchemaName.of(services.schema());
    JobsClient dropping =
        JobsClient.builder(services.dataSource(), schema)
            .interceptEnqueue(enqueue -> enqueue.proceed(List.of()))
            .build();
    assertThatThrownBy(() -> dropping.enqueue(JobRequest.of("send", "{}")))
        .isInstanceOf(IllegalArgumentException.class);
    JobsClient twice =
        JobsClient.builder(services.dataSource(), schema)
            .interceptEnqueue(
                enqueue -> {
                  enqueue.proceed(enqueue.requests());
                  return enqueue.proceed(enqueue.requests());
                })
            .build();
    assertThatThrownBy(() -> twice.enqueue(JobRequest.of("send", "{}")))
        .isInstanceOf(IllegalStateException.class);
  }
}
