/*
 * The public API of one module as a sorted text file, one line per type and member (K3).
 *
 * Run by the build in the verify phase of every published module (see the api-signatures
 * execution in the parent pom), as a single-file source program on the module's compile class
 * path, so it needs no build step of its own:
 *
 *   java -cp <module class path> tools/ApiSignatures.java --classes <dir> --file <api file>
 *       --module <artifactId> --root <repository root> [--write=true] [--packaging <packaging>]
 *
 * It loads every class under --classes (without initializing it) whose package is not internal
 * (no ".internal" segment), keeps the public and protected types whose enclosing types are
 * public or protected too, and writes each one's declaration and its public and protected
 * fields, constructors and methods (declared, not inherited; no synthetic or bridge methods),
 * with generics, type annotations such as @Nullable, throws clauses and @Deprecated. Lines are
 * sorted by type, then kind (type, field, constructor, method), then text.
 *
 * Without --write it compares the lines with the file and exits 1, naming the file, the added
 * and removed lines and the command that regenerates the file, when they differ. With
 * --write=true it rewrites the file. A module of packaging "pom" has no API: nothing happens.
 */

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.AnnotatedTypeVariable;
import java.lang.reflect.AnnotatedWildcardType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericDeclaration;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class ApiSignatures {
  /** The one command that regenerates every signature file; printed when a check fails. */
  static final String REGENERATE = "./mvnw -B -ntp -q verify -DskipTests -Dapi.write";

  private static final String HEADER_PREFIX = "# ";

  private ApiSignatures() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = parse(args);
    if ("pom".equals(options.getOrDefault("packaging", "jar"))) {
      return;
    }
    Path classes = Path.of(required(options, "classes"));
    Path file = Path.of(required(options, "file"));
    String module = required(options, "module");
    Path root = Path.of(options.getOrDefault("root", ".")).toAbsolutePath().normalize();
    boolean write = "true".equals(options.get("write")) || "".equals(options.get("write"));
    String shown = display(root, file);

    List<String> actual = Files.isDirectory(classes) ? signatures(classes) : List.of();
    String header =
        HEADER_PREFIX
            + "The public API of "
            + module
            + ", one line per type and member. Checked by mvn verify; regenerate: "
            + REGENERATE;
    if (write) {
      List<String> before = Files.exists(file) ? lines(file) : List.of();
      Files.createDirectories(file.toAbsolutePath().getParent());
      List<String> content = new ArrayList<>();
      content.add(header);
      content.addAll(actual);
      Files.write(file, content, StandardCharsets.UTF_8);
      Diff diff = Diff.of(before, actual);
      System.out.printf(
          "api: wrote %s (%d lines, %d added, %d removed)%n",
          shown, actual.size(), diff.added.size(), diff.removed.size());
      return;
    }
    if (!Files.exists(file)) {
      System.err.printf(
          "API check failed: %s does not exist; %s has %d public API lines.%n"
              + "Record the API by running, from the repository root:%n  %s%n"
              + "and commit %s with the change.%n",
          shown, module, actual.size(), REGENERATE, shown);
      System.exit(1);
    }
    List<String> recorded = lines(file);
    if (recorded.equals(actual)) {
      return;
    }
    Diff diff = Diff.of(recorded, actual);
    StringBuilder message = new StringBuilder();
    message
        .append("API check failed: the public API of ")
        .append(module)
        .append(" differs from ")
        .append(shown)
        .append(" (")
        .append(diff.added.size())
        .append(" added, ")
        .append(diff.removed.size())
        .append(" removed")
        .append(
            diff.added.isEmpty() && diff.removed.isEmpty()
                ? "; the same lines, but not in the generated order"
                : "")
        .append("):\n");
    diff.removed.forEach(line -> message.append("  - ").append(line).append('\n'));
    diff.added.forEach(line -> message.append("  + ").append(line).append('\n'));
    message
        .append("If the change is intended, regenerate the file from the repository root with\n  ")
        .append(REGENERATE)
        .append("\nand commit ")
        .append(shown)
        .append(" in the same commit as the change.");
    System.err.println(message);
    System.exit(1);
  }

  private static String display(Path root, Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    return absolute.startsWith(root) ? root.relativize(absolute).toString() : file.toString();
  }

  private static List<String> lines(Path file) throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
        .filter(line -> !line.isBlank() && !line.startsWith(HEADER_PREFIX))
        .collect(Collectors.toList());
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument: " + arg);
      }
      int eq = arg.indexOf('=');
      if (eq > 0) {
        options.put(arg.substring(2, eq), arg.substring(eq + 1));
      } else if (i + 1 < args.length) {
        options.put(arg.substring(2), args[++i]);
      } else {
        throw new IllegalArgumentException("no value for " + arg);
      }
    }
    return options;
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("missing --" + name);
    }
    return value;
  }

  /** The sorted signature lines of the classes under a directory. */
  static List<String> signatures(Path classes) throws IOException, ClassNotFoundException {
    List<String> names;
    try (Stream<Path> files = Files.walk(classes)) {
      names =
          files
              .filter(p -> p.toString().endsWith(".class"))
              .map(p -> classes.relativize(p).toString())
              .filter(n -> !n.endsWith("module-info.class") && !n.endsWith("package-info.class"))
              .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
              .map(n -> n.replace('\\', '.'))
              .filter(n -> !isInternal(n))
              .sorted()
              .collect(Collectors.toList());
    }
    ClassLoader parent = ApiSignatures.class.getClassLoader();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, parent)) {
      List<Line> lines = new ArrayList<>();
      for (String name : names) {
        Class<?> type = Class.forName(name, false, loader);
        if (isApi(type)) {
          describe(type, lines);
        }
      }
      return lines.stream()
          .sorted(
              Comparator.comparing((Line l) -> l.type)
                  .thenComparingInt(l -> l.order)
                  .thenComparing(l -> l.text))
          .map(l -> l.type + ": " + l.text)
          .distinct()
          .collect(Collectors.toList());
    }
  }

  private static boolean isInternal(String className) {
    int dot = className.lastIndexOf('.');
    String pkg = dot < 0 ? "" : className.substring(0, dot);
    return ("." + pkg + ".").contains(".internal.");
  }

  private static boolean isApi(Class<?> type) {
    if (type.isSynthetic() || type.isAnonymousClass() || type.isLocalClass()) {
      return false;
    }
    for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
      if (!visible(c.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private record Line(String type, int order, String text) {}

  private static void describe(Class<?> type, List<Line> out) {
    String name = type.getName();
    out.add(new Line(name, 0, declaration(type)));
    for (Field field : type.getDeclaredFields()) {
      if (visible(field.getModifiers()) && !field.isSynthetic()) {
        out.add(
            new Line(
                name,
                1,
                deprecated(field)
                    + modifiers(field.getModifiers())
                    + format(field.getAnnotatedType())
                    + " "
                    + field.getName()));
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      if (visible(constructor.getModifiers()) && !constructor.isSynthetic()) {
        out.add(new Line(name, 2, executable(constructor, type.getSimpleName(), null)));
      }
    }
    for (Method method : type.getDeclaredMethods()) {
      if (visible(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
        out.add(
            new Line(
                name,
                3,
                executable(
                    method,
                    method.getName(),
                    method.isDefault() ? "default " : "")));
      }
    }
  }

  private static String declaration(Class<?> type) {
    int mods = type.getModifiers() & ~Modifier.INTERFACE;
    String kind;
    if (type.isAnnotation()) {
      kind = "@interface";
      mods &= ~Modifier.ABSTRACT;
    } else if (type.isInterface()) {
      kind = "interface";
      mods &= ~Modifier.ABSTRACT;
    } else if (type.isEnum()) {
      kind = "enum";
    } else if (type.isRecord()) {
      kind = "record";
    } else {
      kind = "class";
    }
    StringBuilder s = new StringBuilder(deprecated(type)).append(modifiers(mods));
    if (type.isSealed()) {
      s.append("sealed ");
    }
    s.append(kind).append(' ').append(type.getName()).append(typeParameters(type));
    AnnotatedType superclass = type.getAnnotatedSuperclass();
    if (superclass != null
        && !type.isEnum()
        && !type.isRecord()
        && superclass.getType() != Object.class) {
      s.append(" extends ").append(format(superclass));
    }
    AnnotatedType[] interfaces = type.getAnnotatedInterfaces();
    if (interfaces.length > 0) {
      s.append(type.isInterface() ? " extends " : " implements ")
          .append(
              Arrays.stream(interfaces)
                  .map(ApiSignatures::format)
                  .sorted()
                  .collect(Collectors.joining(", ")));
    }
    if (type.isSealed()) {
      s.append(" permits ")
          .append(
              Arrays.stream(type.getPermittedSubclasses())
                  .map(Class::getName)
                  .sorted()
                  .collect(Collectors.joining(", ")));
    }
    return s.toString();
  }

  private static String executable(Executable e, String name, String defaultKeyword) {
    StringBuilder s = new StringBuilder(deprecated(e));
    int mods = e.getModifiers();
    if (e instanceof Method && e.getDeclaringClass().isInterface()) {
      mods &= ~Modifier.ABSTRACT;
    }
    s.append(modifiers(mods & ~Modifier.TRANSIENT & ~Modifier.VOLATILE));
    if (defaultKeyword != null) {
      s.append(defaultKeyword);
    }
    String typeParameters = typeParameters(e);
    if (!typeParameters.isEmpty()) {
      s.append(typeParameters).append(' ');
    }
    if (e instanceof Method) {
      s.append(format(((Method) e).getAnnotatedReturnType())).append(' ');
    }
    s.append(name).append('(').append(parameters(e)).append(')');
    AnnotatedType[] exceptions = e.getAnnotatedExceptionTypes();
    if (exceptions.length > 0) {
      s.append(" throws ")
          .append(
              Arrays.stream(exceptions)
                  .map(ApiSignatures::format)
                  .sorted()
                  .collect(Collectors.joining(", ")));
    }
    return s.toString();
  }

  private static String parameters(Executable e) {
    AnnotatedType[] annotated = e.getAnnotatedParameterTypes();
    Type[] generic = e.getGenericParameterTypes();
    List<String> parts = new ArrayList<>();
    boolean useAnnotated = annotated.length == generic.length;
    int count = useAnnotated ? annotated.length : generic.length;
    for (int i = 0; i < count; i++) {
      String part = useAnnotated ? format(annotated[i]) : generic[i].getTypeName();
      if (e.isVarArgs() && i == count - 1 && part.endsWith("[]")) {
        part = part.substring(0, part.length() - 2) + "...";
      }
      parts.add(part);
    }
    return String.join(", ", parts);
  }

  private static String typeParameters(GenericDeclaration d) {
    TypeVariable<?>[] variables = d.getTypeParameters();
    if (variables.length == 0) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    for (TypeVariable<?> v : variables) {
      String bounds =
          Arrays.stream(v.getAnnotatedBounds())
              .filter(b -> b.getType() != Object.class || b.getAnnotations().length > 0)
              .map(ApiSignatures::format)
              .collect(Collectors.joining(" & "));
      parts.add(
          annotations(v.getAnnotations())
              + v.getName()
              + (bounds.isEmpty() ? "" : " extends " + bounds));
    }
    return "<" + String.join(", ", parts) + ">";
  }

  private static String modifiers(int mods) {
    String s = Modifier.toString(mods);
    return s.isEmpty() ? "" : s + " ";
  }

  private static String deprecated(AnnotatedElement e) {
    return e.isAnnotationPresent(Deprecated.class) ? "@Deprecated " : "";
  }

  private static String annotations(Annotation[] annotations) {
    Set<String> names = new LinkedHashSet<>();
    for (Annotation a : annotations) {
      names.add("@" + a.annotationType().getSimpleName());
    }
    return names.isEmpty() ? "" : String.join(" ", names) + " ";
  }

  /** A type as written in source, with its (runtime-visible) type annotations. */
  static String format(AnnotatedType t) {
    String prefix = annotations(t.getAnnotations());
    if (t instanceof AnnotatedArrayType) {
      AnnotatedArrayType array = (AnnotatedArrayType) t;
      String annotationsOnArray = prefix.isEmpty() ? "" : " " + prefix.trim() + " ";
      return format(array.getAnnotatedGenericComponentType()) + annotationsOnArray + "[]";
    }
    if (t instanceof AnnotatedParameterizedType) {
      AnnotatedParameterizedType p = (AnnotatedParameterizedType) t;
      java.lang.reflect.ParameterizedType raw = (java.lang.reflect.ParameterizedType) p.getType();
      return prefix
          + raw.getRawType().getTypeName()
          + Arrays.stream(p.getAnnotatedActualTypeArguments())
              .map(ApiSignatures::format)
              .collect(Collectors.joining(", ", "<", ">"));
    }
    if (t instanceof AnnotatedWildcardType) {
      AnnotatedWildcardType w = (AnnotatedWildcardType) t;
      AnnotatedType[] lower = w.getAnnotatedLowerBounds();
      AnnotatedType[] upper = w.getAnnotatedUpperBounds();
      if (lower.length > 0) {
        return prefix + "? super " + format(lower[0]);
      }
      if (upper.length > 0
          && (upper[0].getType() != Object.class || upper[0].getAnnotations().length > 0)) {
        return prefix + "? extends " + format(upper[0]);
      }
      return prefix + "?";
    }
    if (t instanceof AnnotatedTypeVariable) {
      return prefix + ((TypeVariable<?>) t.getType()).getName();
    }
    return prefix + t.getType().getTypeName();
  }

  /** Lines only in the recorded file (removed) and only in the compiled API (added). */
  static final class Diff {
    final List<String> added;
    final List<String> removed;

    private Diff(List<String> added, List<String> removed) {
      this.added = added;
      this.removed = removed;
    }

    static Diff of(List<String> recorded, List<String> actual) {
      Set<String> before = new LinkedHashSet<>(recorded);
      Set<String> after = new LinkedHashSet<>(actual);
      List<String> added = actual.stream().filter(l -> !before.contains(l)).collect(toList());
      List<String> removed = recorded.stream().filter(l -> !after.contains(l)).collect(toList());
      return new Diff(added, removed);
    }

    private static <T> java.util.stream.Collector<T, ?, List<T>> toList() {
      return Collectors.toList();
    }
  }
}
