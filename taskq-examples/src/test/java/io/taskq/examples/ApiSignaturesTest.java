package io.taskq.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * K3: the signature check the build runs in every published module's verify phase
 * (tools/ApiSignatures.java, through the parent pom's api-signatures execution), run here with the
 * same arguments on a fixture module compiled by the test: record its API, then change it without
 * recording the change, and the check fails naming the file, the lines and the command that
 * regenerates it.
 */
@Tag("K3")
class ApiSignaturesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path TOOL = ROOT.resolve("tools/ApiSignatures.java");
  private static final String REGENERATE = "./mvnw -B -ntp -q verify -DskipTests -Dapi.write";

  private static final String GREET = "  public String greet(String name) { return name; }\n";

  /** The tool compiled once for the class (the build runs the same source with java's launcher). */
  @TempDir static Path toolClasses;

  @TempDir Path dir;
  private Path sources;
  private Path classes;
  private Path apiFile;

  @BeforeAll
  static void compileTheTool() {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int code = javac.run(null, null, errors, "-d", toolClasses.toString(), TOOL.toString());
    assertThat(code).as(errors.toString(StandardCharsets.UTF_8)).isZero();
  }

  @BeforeEach
  void recordTheFixturesApi() throws IOException {
    sources = dir.resolve("src");
    classes = dir.resolve("classes");
    apiFile = dir.resolve("fixture/api/fixture.api");
    writeGreeter(GREET);
    writeSource(
        "fixture/internal/Helper.java",
        "package fixture.internal;\npublic class Helper { public void help() {} }\n");
    compile();

    Result written = run(true);
    assertThat(written.exitCode).as(written.output).isZero();
  }

  @Test
  void recordedFile_listsThePublicTypesAndMembersSortedAndNoInternalPackage() throws IOException {
    List<String> lines = Files.readAllLines(apiFile);

    assertThat(lines.get(0)).startsWith("# The public API of fixture").endsWith(REGENERATE);
    assertThat(lines.subList(1, lines.size()))
        .containsExactly(
            "fixture.Greeter: public class fixture.Greeter<T extends java.lang.CharSequence>",
            "fixture.Greeter: public static final int LIMIT",
            "fixture.Greeter: public Greeter()",
            "fixture.Greeter: protected java.util.List<? super T> sink()",
            "fixture.Greeter: public java.lang.String greet(java.lang.String)",
            "fixture.Greeter$Mode: public static final enum fixture.Greeter$Mode",
            "fixture.Greeter$Mode: public static final fixture.Greeter$Mode LOUD",
            "fixture.Greeter$Mode: public static fixture.Greeter$Mode valueOf(java.lang.String)",
            "fixture.Greeter$Mode: public static fixture.Greeter$Mode[] values()");
    assertThat(run(false).exitCode).as("an unchanged API passes").isZero();
  }

  @Test
  void unrecordedAddedMethod_failsNamingTheFileTheLineAndTheRegenerateCommand() throws IOException {
    writeGreeter(GREET + "  public String greet(String name, int times) { return name; }\n");
    compile();

    Result check = run(false);

    assertThat(check.exitCode).isEqualTo(1);
    assertThat(check.output)
        .contains(
            "API check failed: the public API of fixture differs from fixture/api/fixture.api"
                + " (1 added, 0 removed):",
            "  + fixture.Greeter: public java.lang.String greet(java.lang.String, int)",
            REGENERATE);
    assertThat(run(true).exitCode).isZero();
    assertThat(run(false).exitCode).as("passes once the file is regenerated").isZero();
  }

  @Test
  void unrecordedChangedSignature_showsTheRemovedAndTheAddedLine() throws IOException {
    writeGreeter(
        "  public @org.jspecify.annotations.Nullable String greet(CharSequence name) {"
            + " return null; }\n");
    compile();

    Result check = run(false);

    assertThat(check.exitCode).isEqualTo(1);
    assertThat(check.output)
        .contains(
            "  - fixture.Greeter: public java.lang.String greet(java.lang.String)",
            "  + fixture.Greeter: public @Nullable java.lang.String"
                + " greet(java.lang.CharSequence)");
  }

  @Test
  void changeInAnInternalPackage_isNotAnApiChange() throws IOException {
    writeSource(
        "fixture/internal/Helper.java",
        "package fixture.internal;\npublic class Helper { public int help(int n) { return n; } }\n");
    compile();

    Result check = run(false);

    assertThat(check.exitCode).as(check.output).isZero();
  }

  @Test
  void missingFile_failsWithTheRegenerateCommand() throws IOException {
    Files.delete(apiFile);

    Result check = run(false);

    assertThat(check.exitCode).isEqualTo(1);
    assertThat(check.output).contains("fixture/api/fixture.api does not exist", REGENERATE);
  }

  private void writeGreeter(String methods) throws IOException {
    writeSource(
        "fixture/Greeter.java",
        "package fixture;\n"
            + "public class Greeter<T extends CharSequence> {\n"
            + "  public static final int LIMIT = 3;\n"
            + "  int packagePrivate;\n"
            + "  private void secret() {}\n"
            + "  protected java.util.List<? super T> sink() { return new java.util.ArrayList<>(); }\n"
            + "  public enum Mode { LOUD }\n"
            + "  static class Hidden { public void notApi() {} }\n"
            + methods
            + "}\n");
  }

  private void writeSource(String path, String text) throws IOException {
    Path file = sources.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private void compile() throws IOException {
    Files.createDirectories(classes);
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", jspecify()));
    try (var files = Files.walk(sources)) {
      files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int code = javac.run(null, null, errors, args.toArray(String[]::new));
    assertThat(code).as(errors.toString(StandardCharsets.UTF_8)).isZero();
  }

  private static String jspecify() {
    try {
      return Path.of(Nullable.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private record Result(int exitCode, String output) {}

  /** Runs the tool as the build does, on the module's class path (compiled, not from source). */
  private Result run(boolean write) throws IOException {
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath =
        String.join(File.pathSeparator, toolClasses.toString(), classes.toString(), jspecify());
    Process process =
        new ProcessBuilder(
                javaBin,
                "-classpath",
                classPath,
                "ApiSignatures",
                "--packaging=jar",
                "--module=fixture",
                "--classes=" + classes,
                "--file=" + apiFile,
                "--root=" + dir,
                "--write=" + write)
            .redirectErrorStream(true)
            .start();
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
    try {
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the tool finished").isTrue();
      return new Result(process.exitValue(), output.join());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException(e);
    }
  }

  private static String readAll(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
