package io.taskq.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.taskq.architecture.internal.ProbeFaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * K2: test hooks are not on production classes. A fault seam or a worker probe is reached only
 * through the one internal {@code TestHooks} object ({@code TestHooks.of(taskq)}), never through a
 * method of a class in a public package, and no seam arms itself in public: over the main classes
 * of every module of the build.
 */
@Tag("K2")
class TestSeamsTest {
  private static final Path ROOT =
      Path.of(System.getProperty("taskq.root", "..")).toAbsolutePath().normalize();
  private static final String HOOKS = "io.taskq.postgres.internal.TestHooks";

  @Test
  void noPublicPackageClass_handsOutATestSeam() throws IOException {
    JavaClasses main = mainClasses();
    assertThat(main.contain(HOOKS)).as("compiled main classes under %s", ROOT).isTrue();
    assertThat(seamsOnPublicClasses(main)).isEmpty();
  }

  @Test
  void noSeamIsArmedButThroughTestHooks() throws IOException {
    List<String> arming = new ArrayList<>();
    for (JavaClass c : mainClasses()) {
      for (JavaMethod m : c.getMethods()) {
        if (m.getName().equals("arm")
            && isSeam(c)
            && m.getModifiers().contains(JavaModifier.PUBLIC)) {
          arming.add(m.getFullName());
        }
      }
    }
    assertThat(arming).isEmpty();
  }

  @Test
  void theRule_findsASeamOnAPublicClass() {
    JavaClasses probe = new ClassFileImporter().importClasses(HandsOutASeam.class);
    assertThat(seamsOnPublicClasses(probe))
        .containsExactly(HandsOutASeam.class.getName() + ".faults()");
  }

  /** Non-private methods of public-package classes whose type is a seam or the hooks. */
  static List<String> seamsOnPublicClasses(JavaClasses classes) {
    List<String> found = new ArrayList<>();
    for (JavaClass c : classes) {
      if (InternalBoundaryTest.isInternal(c.getPackageName())) {
        continue;
      }
      for (JavaMethod m : c.getMethods()) {
        JavaClass type = m.getRawReturnType();
        boolean seam = isSeam(type) || type.getName().equals(HOOKS) || isProbe(type);
        if (seam && !m.getModifiers().contains(JavaModifier.PRIVATE)) {
          found.add(c.getName() + "." + m.getName() + "()");
        }
      }
    }
    return found;
  }

  private static boolean isSeam(JavaClass type) {
    return InternalBoundaryTest.isInternal(type.getPackageName())
        && (type.getSimpleName().endsWith("Faults") || type.getSimpleName().equals("FaultSeam"));
  }

  private static boolean isProbe(JavaClass type) {
    return InternalBoundaryTest.isInternal(type.getPackageName())
        && type.getSimpleName().endsWith("Probe");
  }

  private static JavaClasses mainClasses() throws IOException {
    List<Path> compiled = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(ROOT)) {
      for (Path dir : dirs.sorted().toList()) {
        Path classes = dir.resolve("target/classes");
        if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(classes)) {
          compiled.add(classes);
        }
      }
    }
    return new ClassFileImporter().importPaths(compiled);
  }

  /** A public-package class with a seam of its own: the case the rule refuses. */
  static final class HandsOutASeam {
    private final ProbeFaults faults = new ProbeFaults();

    ProbeFaults faults() {
      return faults;
    }
  }
}
