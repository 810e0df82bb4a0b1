package io.taskq.dashboard.internal;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import com.github.mustachejava.MustacheFactory;
import java.io.StringWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The page templates (Mustache, from the jar's {@code io/taskq/dashboard/templates}).
 *
 * <p>W5 rests here: {@code {{value}}} is HTML-escaped by Mustache ({@code & < > " ' ` =}), and the
 * templates never use the unescaped forms ({@code {{{...}}}} or {@code {{&...}}}); a test reads
 * every template to keep it so. Every attribute value is quoted. Pages compose through template
 * inheritance ({@code {{<layout}}}), never by pasting rendered HTML into another template.
 */
public final class Templates {
  private final MustacheFactory factory =
      new DefaultMustacheFactory("io/taskq/dashboard/templates");
  private final Map<String, Mustache> compiled = new ConcurrentHashMap<>();

  /** Renders template {@code name} ({@code name.mustache}) with {@code scope}. */
  public String render(String name, Object scope) {
    Mustache mustache = compiled.computeIfAbsent(name, n -> factory.compile(n + ".mustache"));
    StringWriter out = new StringWriter();
    mustache.execute(out, scope);
    return out.toString();
  }
}
