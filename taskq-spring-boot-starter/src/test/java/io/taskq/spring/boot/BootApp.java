package io.taskq.spring.boot;

import io.taskq.Actor;
import io.taskq.JobRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * A small Boot application: an orders table and a mail actor, as a user would write them, with
 * Spring Security: HTTP basic sign-in, {@code /ops/**} (where a test mounts the dashboard) for
 * users with role {@code OPS}, every other request open.
 */
@SpringBootApplication(proxyBeanMethods = false)
class BootApp {
  /** What the mail actor was given, in order. */
  static final List<String> MAILED = new CopyOnWriteArrayList<>();

  /** Opened by a test to let a slow job finish; null means jobs finish at once. */
  static volatile CountDownLatch slowJobs = new CountDownLatch(0);

  /** Counted down when a slow job starts. */
  static volatile CountDownLatch slowStarted = new CountDownLatch(0);

  @Bean
  Actor<String> mailer() {
    return Actor.rawJson(
        "send-mail",
        (json, ctx) -> {
          slowStarted.countDown();
          if (!slowJobs.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never released the slow job");
          }
          MAILED.add(json);
          return null;
        });
  }

  /** The application's own security rules, which the mounted dashboard must live behind. */
  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    return http.authorizeHttpRequests(
            a -> a.requestMatchers("/ops/**").hasRole("OPS").anyRequest().permitAll())
        .httpBasic(Customizer.withDefaults())
        // The dashboard checks its own CSRF token and the origin on each state change.
        .csrf(c -> c.ignoringRequestMatchers("/ops/**"))
        .build();
  }

  /** Ana operates the queue, Bo may look at it, Cy is a user of the application only. */
  @Bean
  UserDetailsService users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("ana").password("{noop}ana-pw").roles("OPS", "TASKQ_OPERATOR").build(),
        User.withUsername("bo").password("{noop}bo-pw").roles("OPS").build(),
        User.withUsername("cy").password("{noop}cy-pw").roles("CUSTOMER").build());
  }

  @Service
  static class Orders {
    private final JdbcTemplate jdbc;
    private final TaskQJobs jobs;
    private final String table;
    private final AtomicLong lastJob = new AtomicLong();

    Orders(JdbcTemplate jdbc, TaskQJobs jobs, org.springframework.core.env.Environment env) {
      this.jdbc = jdbc;
      this.jobs = jobs;
      this.table = env.getRequiredProperty("taskq.schema-name") + ".orders";
    }

    /** The business write and the job, in one transaction; {@code fail} rolls both back. */
    @Transactional
    public long place(String item, boolean fail) {
      jdbc.update("INSERT INTO " + table + " (item) VALUES (?)", item);
      long id = jobs.enqueue(JobRequest.of("send-mail", "{\"item\": \"" + item + "\"}"));
      lastJob.set(id);
      if (fail) {
        throw new IllegalStateException("payment refused for " + item);
      }
      return id;
    }

    /** Enqueues in a read-only transaction: refused. */
    @Transactional(readOnly = true)
    public long placeReadOnly(String item) {
      return jobs.enqueue(JobRequest.of("send-mail", "{\"item\": \"" + item + "\"}"));
    }

    /** The id the last {@link #place} call got for its job. */
    public long lastJob() {
      return lastJob.get();
    }

    public int count(String item) {
      Integer n =
          jdbc.queryForObject(
              "SELECT count(*) FROM " + table + " WHERE item = ?", Integer.class, item);
      return n == null ? 0 : n;
    }
  }
}
