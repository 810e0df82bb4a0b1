package io.taskq.testing;

import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Gives each test class its own schema, pool and Redis prefix; see {@link TaskQTest}.
 *
 * <p>The resources are created before the class's first test (so a missing server fails the class
 * at once, with the message from discovery) and live in the outermost test class's extension store,
 * which JUnit closes when that class finishes, passed or failed: the pool is shut, the schema
 * dropped and the Redis keys deleted. {@code @Nested} classes find the same store and share them.
 */
public final class TaskQTestExtension implements BeforeAllCallback, ParameterResolver {
  /** The zone every test session runs in: deliberately not UTC, with a half-hour offset. */
  public static final String SESSION_TIME_ZONE =
      System.getProperty("taskq.test.timezone", "America/St_Johns");

  /** Created by JUnit for each class annotated {@link TaskQTest}. */
  public TaskQTestExtension() {}

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TaskQTestExtension.class);
  private static final String KEY = "resources";

  @Override
  public void beforeAll(ExtensionContext context) {
    classResources(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    return parameter.getParameter().getType() == TestServices.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    try {
      return classResources(extension).services;
    } catch (RuntimeException e) {
      throw new ParameterResolutionException(
          "no TestServices for " + parameter.getDeclaringExecutable() + ": " + e.getMessage(), e);
    }
  }

  private static ClassResources classResources(ExtensionContext context) {
    ExtensionContext outermost = outermostClass(context);
    return outermost
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(KEY, key -> open(outermost), ClassResources.class);
  }

  private static ExtensionContext outermostClass(ExtensionContext context) {
    ExtensionContext classContext = context;
    Optional<ExtensionContext> parent = classContext.getParent();
    while (parent.isPresent() && parent.get().getTestClass().isPresent()) {
      classContext = parent.get();
      parent = classContext.getParent();
    }
    return classContext;
  }

  private static ClassResources open(ExtensionContext classContext) {
    Class<?> testClass = classContext.getRequiredTestClass();
    Optional<TaskQTest> annotation = AnnotationSupport.findAnnotation(testClass, TaskQTest.class);
    int poolSize = annotation.map(TaskQTest::poolSize).orElse(4);
    String prefix = annotation.map(TaskQTest::schemaPrefix).orElse(ClassResources.DEFAULT_PREFIX);
    try {
      return ClassResources.open(
          TestServers.findPostgres(),
          TestServers::findRedis,
          testClass.getSimpleName(),
          prefix,
          poolSize);
    } catch (java.sql.SQLException e) {
      throw new ExtensionConfigurationException(
          "could not create the test schema for "
              + testClass.getName()
              + ": "
              + ServerProbe.oneLine(e),
          e);
    }
  }
}
