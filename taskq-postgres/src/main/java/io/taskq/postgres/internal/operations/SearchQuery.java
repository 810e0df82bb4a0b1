package io.taskq.postgres.internal.operations;

import io.taskq.JobStatus;
import io.taskq.operations.JobFilter;
import io.taskq.postgres.internal.JsonWriter;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One job search as one statement (A1): a {@code search_arm} per status asked for (or one over
 * every status), on the hot table and, when asked, the archive, joined by {@code UNION ALL} and cut
 * to the page. Each arm walks its index backwards from the cursor and stops at the page size, or
 * reads its state's partial index (a state whose rows are few: scheduled, running), so a page costs
 * about the page, whatever the table's size. Only the criteria the filter sets are in the text;
 * every value is a bind, but for each arm's status, a literal from {@link JobStatus} so that
 * generic plans use the state's partial index (V013).
 */
final class SearchQuery {
  /** The cursor of an arm without one (a count's). */
  private static final long NO_CURSOR = -1;

  private final String sql;
  private final List<Object> binds;

  private SearchQuery(String sql, List<Object> binds) {
    this.sql = sql;
    this.binds = binds;
  }

  /** The statement for one page of {@code filter} below {@code cursor}, {@code limit} rows. */
  static SearchQuery of(NamedStatements statements, JobFilter filter, long cursor, int limit) {
    List<Object> binds = new ArrayList<>();
    List<String> arms = arms(statements, "search_arm", filter, cursor, limit, binds);
    String union =
        arms.size() == 1
            ? arms.get(0)
            : "SELECT * FROM ("
                + String.join("\nUNION ALL\n", arms)
                + ") a ORDER BY id DESC LIMIT ?";
    if (arms.size() > 1) {
      binds.add(limit);
    }
    return new SearchQuery(union, binds);
  }

  /**
   * The statement counting the jobs {@code filter} matches, each arm stopping after {@code limit}
   * rows: the search's arms without order or cursor, so any index holding the criteria serves it
   * (one row, column {@code n}).
   */
  static SearchQuery countOf(NamedStatements statements, JobFilter filter, int limit) {
    List<Object> binds = new ArrayList<>();
    List<String> arms = arms(statements, "count_arm", filter, NO_CURSOR, limit, binds);
    return new SearchQuery(
        "SELECT count(*) AS n FROM (" + String.join("\nUNION ALL\n", arms) + ") a", binds);
  }

  private static List<String> arms(
      NamedStatements statements,
      String armName,
      JobFilter filter,
      long cursor,
      int limit,
      List<Object> binds) {
    List<String> arms = new ArrayList<>();
    addArms(
        statements, armName, filter, "jobs", false, filter.statuses(), cursor, limit, arms, binds);
    if (filter.includeArchived()) {
      Set<JobStatus> archived = filter.statuses();
      if (!archived.isEmpty()) {
        archived = Set.copyOf(archived.stream().filter(JobStatus::isTerminal).toList());
      }
      if (filter.statuses().isEmpty() || !archived.isEmpty()) {
        addArms(
            statements,
            armName,
            filter,
            "jobs_archive",
            true,
            archived,
            cursor,
            limit,
            arms,
            binds);
      }
    }
    return arms;
  }

  private static void addArms(
      NamedStatements statements,
      String armName,
      JobFilter filter,
      String table,
      boolean archived,
      Set<JobStatus> statuses,
      long cursor,
      int limit,
      List<String> arms,
      List<Object> binds) {
    String template =
        statements
            .get(armName)
            .replace("{table}", table)
            .replace("{archived}", archived ? "true" : "false");
    List<Object> filterBinds = new ArrayList<>();
    String filters = filters(statements, filter, filterBinds);
    String arm = template.replace("{filters}", filters);
    if (statuses.isEmpty()) {
      arms.add(arm.replace("{status}", ""));
      addArmBinds(binds, cursor, filterBinds, limit);
      return;
    }
    for (JobStatus status : statuses) {
      // The status is a literal, not a bind, so a generic plan can use the state's partial index
      // too (V013); the text is JobStatus's own fixed value, never a caller's.
      arms.add(arm.replace("{status}", "j.status = '" + status.dbValue() + "' AND"));
      addArmBinds(binds, cursor, filterBinds, limit);
    }
  }

  private static void addArmBinds(
      List<Object> binds, long cursor, List<Object> filters, int limit) {
    if (cursor != NO_CURSOR) {
      binds.add(cursor);
    }
    binds.addAll(filters);
    binds.add(limit);
  }

  private static String filters(NamedStatements s, JobFilter f, List<Object> binds) {
    StringBuilder out = new StringBuilder();
    if (f.actors().size() == 1) {
      // One actor as an equality: an index led by (status, actor, id) then walks in id order
      // (V014).
      out.append('\n').append(s.get("search_filter_actor"));
      binds.add(f.actors().get(0));
    } else {
      addArray(out, s, "search_filter_actors", f.actors(), binds);
    }
    addArray(out, s, "search_filter_queues", f.queues(), binds);
    if (!f.labels().isEmpty()) {
      out.append('\n').append(s.get("search_filter_labels"));
      binds.add(JsonWriter.object(f.labels()));
    }
    addArray(out, s, "search_filter_error_classes", f.errorClasses(), binds);
    addTime(out, s, "search_filter_created_from", f.createdFrom(), binds);
    addTime(out, s, "search_filter_created_to", f.createdTo(), binds);
    addTime(out, s, "search_filter_finished_from", f.finishedFrom(), binds);
    addTime(out, s, "search_filter_finished_to", f.finishedTo(), binds);
    return out.toString();
  }

  private static void addArray(
      StringBuilder out, NamedStatements s, String name, List<String> values, List<Object> binds) {
    if (!values.isEmpty()) {
      out.append('\n').append(s.get(name));
      binds.add(values.toArray(new String[0]));
    }
  }

  private static void addTime(
      StringBuilder out,
      NamedStatements s,
      String name,
      @Nullable Instant value,
      List<Object> binds) {
    if (value != null) {
      out.append('\n').append(s.get(name));
      binds.add(OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
    }
  }

  /** The statement's text. */
  String sql() {
    return sql;
  }

  /** Prepares the statement on {@code c} with every value bound. */
  PreparedStatement prepare(Connection c) throws SQLException {
    return prepare(c, "");
  }

  /** Prepares {@code prefix} + the statement (an EXPLAIN, say) with every value bound. */
  PreparedStatement prepare(Connection c, String prefix) throws SQLException {
    PreparedStatement ps = c.prepareStatement(prefix + sql);
    try {
      for (int i = 0; i < binds.size(); i++) {
        Object value = binds.get(i);
        if (value instanceof String[] array) {
          ps.setArray(i + 1, c.createArrayOf("text", array));
        } else {
          ps.setObject(i + 1, value);
        }
      }
      return ps;
    } catch (SQLException | RuntimeException e) {
      ps.close();
      throw e;
    }
  }
}
