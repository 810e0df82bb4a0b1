package io.taskq.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The alert rules, the runbooks and the meter reference agree with what the binder exports (O8): a
 * renamed meter fails this test instead of silently disarming an alert.
 */
@Tag("O8")
class RulesFileTest {
  private static final Path DOCS = Path.of("..", "docs");
  private static final Pattern METRIC = Pattern.compile("\\btaskq_[a-z0-9_]+");
  private static final Pattern ALERT = Pattern.compile("^\\s*-\\s*alert:\\s*(\\S+)\\s*$");
  private static final Pattern EXPR = Pattern.compile("^\\s*expr:\\s*(.*)$");

  private static List<String> rulesLines() throws IOException {
    return Files.readAllLines(DOCS.resolve("prometheus").resolve("taskq-rules.yml"));
  }

  private static List<String> expressions() throws IOException {
    List<String> exprs = new ArrayList<>();
    for (String line : rulesLines()) {
      Matcher m = EXPR.matcher(line);
      if (m.matches()) {
        exprs.add(m.group(1));
      }
    }
    return exprs;
  }

  private static Set<String> alerts() throws IOException {
    Set<String> alerts = new TreeSet<>();
    for (String line : rulesLines()) {
      Matcher m = ALERT.matcher(line);
      if (m.matches()) {
        alerts.add(m.group(1));
      }
    }
    return alerts;
  }

  private static Set<String> exportedNames() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    TaskQMetrics metrics = new TaskQMetrics();
    metrics.bindTo(registry);
    Signals.driveEverySignal(metrics, registry);
    return new Scrape(registry.scrape()).names();
  }

  @Test
  void everyMetricAnExpressionReferences_isExportedByTheBinder() throws IOException {
    List<String> exprs = expressions();
    assertThat(exprs).hasSizeGreaterThanOrEqualTo(6).allMatch(e -> !e.isBlank() && !e.equals("|"));
    Set<String> exported = exportedNames();
    Set<String> referenced = new TreeSet<>();
    for (String expr : exprs) {
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        referenced.add(m.group());
      }
    }

    assertThat(referenced).isNotEmpty();
    assertThat(exported).containsAll(referenced);
  }

  @Test
  void theNormativeAlerts_allExist() throws IOException {
    assertThat(alerts())
        .contains(
            "TaskQSweepTimeouts",
            "TaskQSweepDegraded",
            "TaskQLeaderLockContention",
            "TaskQSplitBrain",
            "TaskQPromotionStall",
            "TaskQEventFeedLag");
    assertThat(expressions()).contains("sum(taskq_maintenance_leader_is_leader) != 1");
  }

  @Test
  @Tag("R6")
  void theSplitBrainRule_toleratesTheDocumentedFailoverWindow() throws IOException {
    List<String> lines = rulesLines();
    int at = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).matches("^\\s*-\\s*alert:\\s*TaskQSplitBrain\\s*$")) {
        at = i;
      }
    }
    assertThat(at).as("the TaskQSplitBrain rule").isNotNegative();
    String forLine =
        lines.subList(at, Math.min(lines.size(), at + 4)).stream()
            .filter(l -> l.trim().startsWith("for:"))
            .findFirst()
            .orElseThrow();
    Matcher m = Pattern.compile("for:\\s*(\\d+)([smh])").matcher(forLine.trim());
    assertThat(m.matches()).as(forLine).isTrue();
    long seconds =
        Long.parseLong(m.group(1))
            * switch (m.group(2)) {
              case "h" -> 3600;
              case "m" -> 60;
              default -> 1;
            };
    // The failover window of reliability.md is at most ~6 s; the rule waits at least 10 times it.
    assertThat(seconds).isGreaterThanOrEqualTo(60);
    assertThat(Files.readString(DOCS.resolve("reliability.md"))).contains("failover window");
  }

  @Test
  void everyAlert_hasARunbookSection() throws IOException {
    String runbooks = Files.readString(DOCS.resolve("runbooks.md"));

    for (String alert : alerts()) {
      assertThat(runbooks).as("runbook for %s", alert).contains("## " + alert + "\n");
    }
    assertThat(runbooks).contains("adopt-by-restart").contains("Adopt by restarting");
  }

  @Test
  void everyExportedMeter_isDocumentedInTheObservabilityReference() throws IOException {
    String reference = Files.readString(DOCS.resolve("observability.md"));
    Set<String> families = new TreeSet<>();
    for (String name : exportedNames()) {
      if (name.startsWith("taskq_")) {
        families.add(name.replaceAll("_(count|sum|max)$", ""));
      }
    }

    assertThat(families).hasSizeGreaterThanOrEqualTo(18);
    for (String family : families) {
      assertThat(reference).as("observability.md documents %s", family).contains(family);
    }
  }
}
