package io.taskq.metrics.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Objects;

/**
 * {@code /metrics}: the registry's meters in the Prometheus text exposition format (version 0.0.4),
 * the format every Prometheus scraper accepts.
 */
public final class MetricsHandler implements EndpointHandler {
  /** The Prometheus text format's content type. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry;

  /**
   * A handler scraping {@code registry}, the one {@code TaskQMetrics} is bound to.
   *
   * @param registry the registry to scrape
   */
  public MetricsHandler(PrometheusMeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public HttpReply respond() {
    return new HttpReply(200, CONTENT_TYPE, registry.scrape(CONTENT_TYPE));
  }
}
