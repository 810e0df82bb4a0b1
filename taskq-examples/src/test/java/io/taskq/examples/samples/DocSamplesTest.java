package io.taskq.examples.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P1: every Java sample in {@code docs/*.md} compiles against the current API. Each {@code ```java}
 * block becomes the body of a method in a subclass of {@link SampleContext} (or, when it is a whole
 * compilation unit, is compiled as it is), with every public TaskQ package imported; all are
 * compiled in one javac run, and each error is reported at its line in the Markdown file.
 */
@Tag("P1")
class DocSamplesTest {
  private static final Path ROOT = Path.of("..");
  private static final List<String> JDK_IMPORTS =
      List.of(
          "java.time.*",
          "java.util.*",
          "java.util.function.*",
          "java.nio.file.Path",
          "java.sql.Connection",
          "java.net.InetSocketAddress",
          "com.sun.net.httpserver.HttpServer",
          "javax.sql.DataSource",
          "io.micrometer.prometheusmetrics.*",
          // The test kit's samples (docs/testing.md) are tests; middleware.md logs with the MDC.
          "org.junit.jupiter.api.Test",
          "static org.assertj.core.api.Assertions.assertThat",
          "org.slf4j.MDC");

  record Sample(Path doc, int firstLine, String code) {}

  record Unit(Sample sample, String className, String source, int headerLines) {}

  @Test
  void everyJavaSampleInDocs_compiles(@TempDir Path out) throws IOException {
    List<Sample> samples = samples();
    List<String> imports = imports();
    List<Unit> units = new ArrayList<>();
    for (int i = 0; i < samples.size(); i++) {
      units.add(unit(samples.get(i), "DocSample" + i, imports));
    }

    List<String> errors = compile(units, out);

    assertThat(samples).as("samples found in docs/*.md").hasSizeGreaterThan(10);
    assertThat(errors).as("compile errors in docs samples").isEmpty();
  }

  /** Every {@code ```java} block of docs/*.md, with the line it starts on. */
  static List<Sample> samples() throws IOException {
    List<Sample> found = new ArrayList<>();
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        List<String> lines = Files.readAllLines(doc);
        for (int i = 0; i < lines.size(); i++) {
          if (lines.get(i).strip().equals("```java")) {
            int start = i + 1;
            StringBuilder code = new StringBuilder();
            for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
              code.append(lines.get(i)).append('\n');
            }
            found.add(new Sample(ROOT.relativize(doc), start + 1, code.toString()));
          }
        }
      }
    }
    return found;
  }

  /** {@code import p.*;} for each public package of the published modules, found in the tree. */
  static List<String> imports() throws IOException {
    List<String> imports = new ArrayList<>(JDK_IMPORTS);
    try (Stream<Path> files = Files.walk(ROOT, 12)) {
      files
          .filter(p -> p.getFileName().toString().equals("package-info.java"))
          .filter(p -> p.toString().contains("src" + java.io.File.separator + "main"))
          .map(DocSamplesTest::packageOf)
          .filter(pkg -> !pkg.contains(".internal") && !pkg.startsWith("io.taskq.examples"))
          .filter(pkg -> !pkg.startsWith("io.taskq.benchmarks"))
          // The command line is a program, not a library: docs show its commands, not its classes.
          .filter(pkg -> !pkg.startsWith("io.taskq.cli"))
          .distinct()
          .sorted()
          .forEach(pkg -> imports.add(pkg + ".*"));
    }
    return imports;
  }

  private static String packageOf(Path packageInfo) {
    try {
      return Files.readAllLines(packageInfo).stream()
          .filter(line -> line.startsWith("package "))
          .map(line -> line.substring(8, line.indexOf(';')).strip())
          .findFirst()
          .orElse("");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Unit unit(Sample sample, String className, List<String> imports) {
    String code = sample.code();
    if (code.startsWith("package ")) {
      String name = code.replaceAll("(?s).*public (?:final )?class (\\w+).*", "$1");
      return new Unit(sample, name, code, 0);
    }
    StringBuilder header = new StringBuilder("package io.taskq.examples.samples;\n");
    imports.forEach(i -> header.append("import ").append(i).append(";\n"));
    header
        .append("@SuppressWarnings(\"all\")\nclass ")
        .append(className)
        .append(" extends SampleContext {\n  void sample() throws Exception {\n");
    String body =
        code.replaceAll("\\(\\.\\.\\.\\)", "(any())")
            .replaceAll("\\{ \\.\\.\\. \\}", "{ }")
            .replaceAll("(?m)^\\s*\\.\\.\\.\\s*$", "");
    String source = header + body + "  }\n}\n";
    return new Unit(sample, className, source, (int) header.toString().lines().count());
  }

  private static List<String> compile(List<Unit> units, Path out) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<JavaFileObject> sources = units.stream().map(DocSamplesTest::fileObject).toList();
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> options =
        List.of("--release", "17", "-proc:none", "-classpath", classPath, "-d", out.toString());
    javac.getTask(null, null, diagnostics, options, null, sources).call();
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        errors.add(where(units, d) + ": " + d.getMessage(Locale.ROOT));
      }
    }
    return errors;
  }

  private static String where(List<Unit> units, Diagnostic<? extends JavaFileObject> d) {
    for (Unit u : units) {
      if (d.getSource() != null && d.getSource().getName().endsWith(u.className() + ".java")) {
        long line = u.sample().firstLine() + d.getLineNumber() - 1 - u.headerLines();
        return u.sample().doc() + ":" + line;
      }
    }
    return String.valueOf(d.getSource());
  }

  private static JavaFileObject fileObject(Unit unit) {
    URI uri = URI.create("string:///" + unit.className() + ".java");
    return new SimpleJavaFileObject(uri, JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return unit.source();
      }
    };
  }
}
