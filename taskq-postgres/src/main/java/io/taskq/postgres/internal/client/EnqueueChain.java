package io.taskq.postgres.internal.client;

import io.taskq.EnqueueInterceptor;
import io.taskq.JobRequest;
import java.util.List;
import java.util.function.Function;

/** One pass through the enqueue interceptors (P6), ending in the insert. */
public final class EnqueueChain implements EnqueueInterceptor.Enqueue {
  private final List<EnqueueInterceptor> interceptors;
  private final EnqueueInterceptor.Kind kind;
  private final int index;
  private final List<JobRequest> requests;
  private final boolean onCallerConnection;
  private final Function<List<JobRequest>, List<Long>> insert;
  private boolean proceeded;

  private EnqueueChain(
      List<EnqueueInterceptor> interceptors,
      EnqueueInterceptor.Kind kind,
      int index,
      List<JobRequest> requests,
      boolean onCallerConnection,
      Function<List<JobRequest>, List<Long>> insert) {
    this.interceptors = interceptors;
    this.kind = kind;
    this.index = index;
    this.requests = requests;
    this.onCallerConnection = onCallerConnection;
    this.insert = insert;
  }

  /**
   * Runs {@code requests} through {@code interceptors} (not empty), then {@code insert}, which
   * checks the changed requests as its path checks its input.
   */
  public static List<Long> run(
      List<EnqueueInterceptor> interceptors,
      EnqueueInterceptor.Kind kind,
      List<JobRequest> requests,
      boolean onCallerConnection,
      Function<List<JobRequest>, List<Long>> insert) {
    return interceptors
        .get(0)
        .intercept(new EnqueueChain(interceptors, kind, 0, requests, onCallerConnection, insert));
  }

  @Override
  public EnqueueInterceptor.Kind kind() {
    return kind;
  }

  @Override
  public List<JobRequest> requests() {
    return requests;
  }

  @Override
  public boolean onCallerConnection() {
    return onCallerConnection;
  }

  @Override
  public List<Long> proceed(List<JobRequest> changed) {
    if (proceeded) {
      throw new IllegalStateException("an enqueue interceptor called proceed() twice");
    }
    proceeded = true;
    List<JobRequest> next = List.copyOf(changed);
    if (next.size() != requests.size()) {
      throw new IllegalArgumentException(
          "an enqueue interceptor changed the number of jobs from "
              + requests.size()
              + " to "
              + next.size());
    }
    for (int i = 0; i < next.size(); i++) {
      if (!next.get(i).actor().equals(requests.get(i).actor())) {
        throw new IllegalArgumentException("an enqueue interceptor changed job " + i + "'s actor");
      }
    }
    int following = index + 1;
    if (following == interceptors.size()) {
      return insert.apply(next);
    }
    return interceptors
        .get(following)
        .intercept(
            new EnqueueChain(interceptors, kind, following, next, onCallerConnection, insert));
  }
}
