package io.taskq.examples.boot;

import io.taskq.Actor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/** The orders application: TaskQ runs on its DataSource, started and stopped with it. */
@SpringBootApplication(proxyBeanMethods = false)
public class OrdersApplication {
  /** The actor that confirms a placed order; its payload is the order's id. */
  public static final String CONFIRM_ORDER = "confirm-order";

  /** Starts the application (settings in {@code application.properties}). */
  public static void main(String[] args) {
    SpringApplication.run(OrdersApplication.class, args);
  }

  /** An actor bean: the starter registers it, and the engine's workers run its jobs. */
  @Bean
  Actor<String> confirmOrder(JdbcTemplate jdbc) {
    return Actor.rawJson(
        CONFIRM_ORDER,
        (orderId, ctx) -> {
          jdbc.update(
              "UPDATE orders SET confirmed_at = now() WHERE id = ?", Long.parseLong(orderId));
          return null;
        });
  }
}
