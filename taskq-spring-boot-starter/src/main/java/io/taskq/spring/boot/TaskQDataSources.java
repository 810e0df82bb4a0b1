package io.taskq.spring.boot;

import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;

/** Which {@code DataSource} TaskQ works on. */
final class TaskQDataSources {
  private TaskQDataSources() {}

  /**
   * The one marked {@link TaskQDataSource}, else the application's only or primary one.
   *
   * @throws IllegalStateException when there are several and none is marked or primary
   */
  static DataSource pick(
      ObjectProvider<DataSource> taskqDataSource, ObjectProvider<DataSource> dataSources) {
    DataSource marked = taskqDataSource.getIfAvailable();
    if (marked != null) {
      return marked;
    }
    DataSource single = dataSources.getIfUnique();
    if (single == null) {
      throw new IllegalStateException(
          "TaskQ found several DataSource beans and none is @Primary: mark the one TaskQ should"
              + " use with @TaskQDataSource, or set taskq.enabled=false");
    }
    return single;
  }
}
