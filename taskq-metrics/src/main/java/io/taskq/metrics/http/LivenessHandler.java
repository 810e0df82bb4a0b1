package io.taskq.metrics.http;

/**
 * {@code /live}: 200 while the process runs. It checks nothing else on purpose: a liveness probe
 * that failed on a database outage would make the orchestrator restart every worker at once,
 * turning an outage into a thundering restart.
 */
public final class LivenessHandler implements EndpointHandler {
  private static final HttpReply LIVE = new HttpReply(200, HttpReply.JSON, "{\"status\":\"live\"}");

  /** A handler that answers 200 as long as the process runs. */
  public LivenessHandler() {}

  @Override
  public HttpReply respond() {
    return LIVE;
  }
}
