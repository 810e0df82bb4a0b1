package io.taskq.examples.samples;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.taskq.Actor;
import io.taskq.JobHandler;
import io.taskq.JobInterceptor;
import io.taskq.JobsClient;
import io.taskq.PayloadCodec;
import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.feed.FeedCursor;
import io.taskq.feed.ReclaimEvent;
import io.taskq.progress.Progress;
import io.taskq.redis.RedisConnector;
import io.taskq.spi.MaintenanceListener;
import io.taskq.testing.TestServices;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;

/**
 * What the samples in docs/*.md take as given: the application's objects they name without
 * declaring (its DataSource, a mailer, a logger, ...). {@link DocSamplesTest} compiles each sample
 * as the body of a method of a subclass, so a sample's own declarations shadow these. A sample's
 * {@code ...} ("the rest of your code") stands for nothing ({@code { ... }}, a line of its own) or
 * for {@link #any()} ({@code (...)}).
 */
@SuppressWarnings({"unused", "NullAway"})
public abstract class SampleContext {
  protected DataSource dataSource;
  protected TaskQ taskq;
  protected JobsClient jobs;
  protected TaskQConfig config;
  protected RedisConnector redis;
  protected Logger log;
  protected MaintenanceListener metricsBinding;
  protected JobHandler<String> handler;
  protected PayloadCodec<Order> orderCodec;
  protected JobHandler<Order> syncHandler;
  protected Mailer mailer;
  protected Reports reports;
  protected List<Customer> customers;
  protected List<Path> files;
  protected Screen ui;
  protected Screen dashboard;
  protected long jobId;
  protected String customerId;
  protected FeedCursor cursor;
  protected SchemaName schema;
  protected String token;
  protected TestServices services;
  protected ObjectMapper objectMapper;
  protected OrderService orders;
  protected Actor<String> confirmations;
  protected JobInterceptor rateGuard;

  /**
   * An argument a sample leaves out: {@code taskq.register(...)}. Samples are compiled, never run;
   * the type parameter is what lets it stand for any argument.
   */
  @SuppressWarnings({"DoNotCallSuggester", "TypeParameterUnusedInFormals"})
  protected static <T> T any() {
    throw new UnsupportedOperationException("samples are compiled, not run");
  }

  protected void copy(Path file) {}

  protected void handle(ReclaimEvent event) {}

  protected void store(Object cursorOrToken) {}

  /** Sends mail; returns nothing, as a real mailer would. A test's mailer records what it sent. */
  public interface Mailer {
    void send(String json);

    default List<String> sent() {
      return List.of();
    }
  }

  /** The application's code that enqueues: places an order, enqueuing its confirmation. */
  public interface OrderService {
    void place(long orderId, String customer);
  }

  /** Renders a report; returns nothing. */
  public interface Reports {
    void run(String json);
  }

  /** Shows progress somewhere. */
  public interface Screen {
    void update(Progress progress);
  }

  public record Customer(long id) {}

  public record Order(String customerId) {}
}
