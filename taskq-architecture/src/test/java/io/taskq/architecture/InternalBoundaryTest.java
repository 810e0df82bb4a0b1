package io.taskq.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * K2: the project's internal packages ({@code ..internal..}) cannot be used from outside. Over the
 * compiled classes (main and test) of every module of the build:
 *
 * <ul>
 *   <li>a module that is not published (examples, benchmarks, the CLI, the acceptance tests) uses
 *       no type of another module's internal package;
 *   <li>a published module uses another module's internal package only where {@code
 *       internal-access.txt} lets it (qualified-export style: package, then the modules that may
 *       use it).
 * </ul>
 *
 * <p>Why an ArchUnit rule and not module descriptors: {@code docs/architecture.md} ("Packages").
 */
@Tag("K2")
class InternalBoundaryTest {
  private static final Path ROOT =
      Path.of(System.getProperty("taskq.root", "..")).toAbsolutePath().normalize();

  private static final Map<String, JavaClasses> CLASSES_BY_MODULE = new TreeMap<>();
  private static final Map<String, String> MODULE_OF_CLASS = new HashMap<>();
  private static final Set<String> PUBLISHED = new TreeSet<>();

  @BeforeAll
  static void importEveryModule() throws IOException {
    try (Stream<Path> dirs = Files.list(ROOT)) {
      for (Path dir : dirs.sorted().toList()) {
        Path pom = dir.resolve("pom.xml");
        String module = dir.getFileName().toString();
        if (!Files.isRegularFile(pom) || module.equals("taskq-architecture")) {
          continue;
        }
        List<Path> compiled = new ArrayList<>();
        for (String out : List.of("target/classes", "target/test-classes")) {
          if (Files.isDirectory(dir.resolve(out))) {
            compiled.add(dir.resolve(out));
          }
        }
        if (compiled.isEmpty()) {
          continue; // the BOM, or a module this build did not compile
        }
        if (!Files.readString(pom).contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
          PUBLISHED.add(module);
        }
        JavaClasses classes = new ClassFileImporter().importPaths(compiled);
        CLASSES_BY_MODULE.put(module, classes);
        for (JavaClass c : classes) {
          MODULE_OF_CLASS.put(c.getName(), module);
        }
      }
    }
    assertThat(CLASSES_BY_MODULE)
        .as("compiled classes under %s (build the modules before this one)", ROOT)
        .containsKeys("taskq-core", "taskq-postgres");
  }

  /** The reviewed allow-list: {@code internal.package: module, module}. */
  static Map<String, Set<String>> allowList() {
    Map<String, Set<String>> allowed = new TreeMap<>();
    try (InputStream in =
        Objects.requireNonNull(
            InternalBoundaryTest.class.getResourceAsStream("/internal-access.txt"),
            "internal-access.txt")) {
      for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
        String entry = raw.split("#", 2)[0].strip();
        if (entry.isEmpty()) {
          continue;
        }
        String[] parts = entry.split(":", 2);
        Set<String> users = allowed.computeIfAbsent(parts[0].strip(), p -> new TreeSet<>());
        for (String user : parts.length > 1 ? parts[1].split(",", -1) : new String[0]) {
          if (!user.isBlank()) {
            users.add(user.strip());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return allowed;
  }

  /**
   * The rule over the classes of {@code module}: no internal type of another module, but allowed.
   */
  static ArchRule boundary(String module, boolean published, Map<String, Set<String>> allowed) {
    String who = published ? "published module " + module : "unpublished module " + module;
    return classes()
        .should(
            new ArchCondition<JavaClass>(
                "use no internal type of another module"
                    + (published ? " unless internal-access.txt lists it" : "")) {
              @Override
              public void check(JavaClass item, ConditionEvents events) {
                for (Dependency d : item.getDirectDependenciesFromSelf()) {
                  JavaClass target = d.getTargetClass().getBaseComponentType();
                  String owner = MODULE_OF_CLASS.get(target.getName());
                  String pkg = target.getPackageName();
                  if (owner == null || owner.equals(module) || !isInternal(pkg)) {
                    continue;
                  }
                  if (published && allowed.getOrDefault(pkg, Set.of()).contains(module)) {
                    continue;
                  }
                  events.add(
                      SimpleConditionEvent.violated(
                          d,
                          who
                              + " uses "
                              + target.getName()
                              + " (internal to "
                              + owner
                              + "): "
                              + d.getDescription()));
                }
              }
            })
        .as("classes of " + who + " should use no internal type of another module")
        .allowEmptyShould(true);
  }

  static boolean isInternal(String pkg) {
    return pkg.startsWith("io.taskq.") && (pkg.contains(".internal.") || pkg.endsWith(".internal"));
  }

  @Test
  void noModuleUsesAnotherModulesInternalTypes_butWhereTheAllowListLetsIt() {
    Map<String, Set<String>> allowed = allowList();
    for (Map.Entry<String, JavaClasses> module : CLASSES_BY_MODULE.entrySet()) {
      String name = module.getKey();
      boundary(name, PUBLISHED.contains(name), allowed).check(module.getValue());
    }
  }

  @Test
  void theAllowList_namesOnlyInternalPackagesAndPublishedModules() {
    for (Map.Entry<String, Set<String>> entry : allowList().entrySet()) {
      assertThat(isInternal(entry.getKey())).as(entry.getKey()).isTrue();
      assertThat(PUBLISHED).as(entry.getKey()).containsAll(entry.getValue());
    }
  }

  @Test
  void theRule_failsOnAnUnpublishedClassUsingAnInternalType() {
    // The examples' own classes, checked as if one of them used the core's internal JsonStrings:
    // the same rule, fed a class that does.
    JavaClasses outsider = new ClassFileImporter().importClasses(UsesAnInternalType.class);
    MODULE_OF_CLASS.putIfAbsent(UsesAnInternalType.class.getName(), "taskq-architecture-probe");
    assertThat(CLASSES_BY_MODULE.get("taskq-core")).isNotNull();
    assertThatThrownBy(
            () -> boundary("taskq-architecture-probe", false, allowList()).check(outsider))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("io.taskq.core.internal.JsonStrings");
  }

  /** A class outside the published modules that uses an internal type (the failing case). */
  static final class UsesAnInternalType {
    static String quoted(String text) {
      StringBuilder out = new StringBuilder();
      io.taskq.core.internal.JsonStrings.append(out, text);
      return out.toString();
    }
  }
}
