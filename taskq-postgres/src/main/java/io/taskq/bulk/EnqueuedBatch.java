package io.taskq.bulk;

import io.taskq.JobsClient;
import java.util.List;

/**
 * A batch just enqueued (L9).
 *
 * @param batchId the batch's id, for {@link JobsClient#findBatch(long)}
 * @param jobIds the members' ids, in the order of {@link BatchRequest#members()}
 */
public record EnqueuedBatch(long batchId, List<Long> jobIds) {
  /**
   * Copies the ids.
   *
   * @param batchId the batch's id, for {@link JobsClient#findBatch(long)}
   * @param jobIds the members' ids, in the order of {@link BatchRequest#members()}
   */
  public EnqueuedBatch {
    jobIds = List.copyOf(jobIds);
  }
}
