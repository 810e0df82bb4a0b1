package io.taskq.examples.boot;

import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /orders} places an order; {@code GET /orders/{id}} shows it. */
@RestController
@RequestMapping("/orders")
public class OrdersController {
  private final OrderDesk desk;
  private final JdbcTemplate jdbc;

  /** The endpoint placing orders at {@code desk}, reading them with {@code jdbc}. */
  public OrdersController(OrderDesk desk, JdbcTemplate jdbc) {
    this.desk = desk;
    this.jdbc = jdbc;
  }

  /** What a client sends to place an order. */
  public record OrderRequest(String item, int quantity) {}

  /** An order as the client sees it; {@code confirmed} once its job has run. */
  public record OrderView(long id, String item, int quantity, boolean confirmed) {}

  /** Places an order: 201 with the order's and the job's ids, 409 when out of stock. */
  @PostMapping
  @ResponseStatus(HttpStatus.CREATED)
  public OrderDesk.PlacedOrder place(@RequestBody OrderRequest request) {
    return desk.place(request.item(), request.quantity());
  }

  /** The order {@code id}, or 404. */
  @GetMapping("/{id}")
  public ResponseEntity<OrderView> get(@PathVariable("id") long id) {
    List<OrderView> found =
        jdbc.query(
            "SELECT id, item, quantity, confirmed_at IS NOT NULL FROM orders WHERE id = ?",
            (rs, row) ->
                new OrderView(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getBoolean(4)),
            id);
    return found.isEmpty() ? ResponseEntity.notFound().build() : ResponseEntity.ok(found.get(0));
  }
}
