#!/usr/bin/env python3
"""Prints the structure figures of the repository (see CONTRIBUTING.md, "Structure figures").

Usage: python3 tools/structure-figures.py [--list] [REPOSITORY_ROOT]

Reads the Java sources as text (no build needed) and prints:
  - public types per public package (top-level public types under src/main/java);
  - public types in internal packages, and how many of them are referenced from another module
    outside the reviewed allow-list (taskq-architecture/src/test/resources/internal-access.txt;
    goal 0);
  - file size in lines (median, p90, max) and method size in lines (median, p90, max, share of
    methods of 20 lines or fewer) over the main sources of every module;
  - the duplicate pairs between the sweep classes (the `duplicates` command, when on PATH).

With --list it also prints the offenders behind the size figures, counted exactly as the figures
count them: every method over 20 lines (lines, file:line, name) and the 40 largest files.
"""

import os
import re
import shutil
import subprocess
import sys

ARGS = [a for a in sys.argv[1:] if a != "--list"]
LIST = "--list" in sys.argv[1:]
ROOT = os.path.abspath(ARGS[0] if ARGS else ".")
ALLOW_LIST = os.path.join(
    ROOT, "taskq-architecture", "src", "test", "resources", "internal-access.txt")
SWEEPS = os.path.join(
    ROOT, "taskq-postgres", "src", "main", "java", "io", "taskq", "postgres", "internal", "sweep")

TYPE_DECL = re.compile(
    r"^public\s+(?:(?:final|abstract|sealed|non-sealed|static|strictfp)\s+)*"
    r"(?:class|interface|enum|record|@interface)\s+(\w+)",
    re.M)
PACKAGE = re.compile(r"^package\s+([\w.]+)\s*;", re.M)
CONTROL = {"if", "for", "while", "switch", "catch", "synchronized", "try", "do", "else",
           "return", "new", "throw", "finally"}


def modules():
    """Every directory under ROOT with a pom.xml and a src folder, by its name."""
    found = []
    for name in sorted(os.listdir(ROOT)):
        path = os.path.join(ROOT, name)
        if os.path.isfile(os.path.join(path, "pom.xml")) and os.path.isdir(
                os.path.join(path, "src")):
            found.append(name)
    return found


def java_files(base):
    for dirpath, _, files in os.walk(base):
        for f in sorted(files):
            if f.endswith(".java"):
                yield os.path.join(dirpath, f)


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def strip(text):
    """Blanks comments, strings, text blocks and char literals; keeps every newline."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j - 1]) + '"')
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * max(0, j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def method_sizes(text):
    """Line counts of the methods and constructors declared in type bodies."""
    return [size for size, _, _ in method_spans(text)]


def method_spans(text):
    """(lines, start line, name) of each method and constructor declared in type bodies."""
    code = strip(text)
    sizes = []
    stack = []  # entries: (kind, start_line, name)
    header_start = 0
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            header = code[header_start:i]
            kind = "block"
            name = ""
            enclosing = stack[-1][0] if stack else "file"
            flat = " ".join(header.split())
            if re.search(r"\b(class|interface|enum|record)\b", flat) or (
                    re.search(r"\bnew\s+[\w.<>, ?]+\([^)]*\)\s*$", flat)):
                kind = "type"
            elif enclosing == "type" and "=" not in flat and "->" not in flat:
                m = re.search(r"(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*"
                              r"(?:throws\s+[\w.,\s]+)?$", flat)
                if m and m.group(1) not in CONTROL:
                    kind = "method"
                    name = m.group(1)
            leading = header[:len(header) - len(header.lstrip())]
            start = line - header.count("\n") + leading.count("\n")
            stack.append((kind, start, name))
            header_start = i + 1
        elif c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "method":
                    sizes.append((line - start + 1, start, name))
            header_start = i + 1
        elif c == ";":
            header_start = i + 1
    return sizes


def percentile(values, p):
    if not values:
        return 0
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def load_allow_list():
    """Lines `internal.package: module, module`; `#` starts a comment."""
    allowed = {}
    if not os.path.isfile(ALLOW_LIST):
        return allowed
    for raw in read(ALLOW_LIST).splitlines():
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        package, _, users = entry.partition(":")
        allowed[package.strip()] = {u.strip() for u in users.split(",") if u.strip()}
    return allowed


def main():
    mods = modules()
    public_by_package = {}
    internal_types = {}  # qualified name -> module
    file_lines = []
    methods = []
    long_methods = []  # (lines, path, start line, name)
    sized_files = []  # (lines, path)
    sources = {}  # module -> list of (package, stripped text)
    for mod in mods:
        for scope in ("main", "test"):
            base = os.path.join(ROOT, mod, "src", scope, "java")
            for path in java_files(base):
                text = read(path)
                pkg_match = PACKAGE.search(text)
                pkg = pkg_match.group(1) if pkg_match else ""
                sources.setdefault(mod, []).append((pkg, strip(text)))
                if scope != "main":
                    continue
                file_lines.append(text.count("\n") + (0 if text.endswith("\n") else 1))
                sized_files.append((file_lines[-1], os.path.relpath(path, ROOT)))
                for size, start, name in method_spans(text):
                    methods.append(size)
                    if size > 20:
                        long_methods.append((size, os.path.relpath(path, ROOT), start, name))
                if os.path.basename(path) in ("package-info.java", "module-info.java"):
                    continue
                for name in TYPE_DECL.findall(strip(text)):
                    if ".internal" in pkg:
                        internal_types[pkg + "." + name] = (mod, pkg, name)
                    else:
                        public_by_package.setdefault(pkg, {}).setdefault(mod, []).append(name)

    print("== Public types per public package (top-level public types, main sources)")
    total = 0
    for pkg in sorted(public_by_package):
        per_mod = public_by_package[pkg]
        count = sum(len(v) for v in per_mod.values())
        total += count
        where = ", ".join(f"{m} {len(v)}" for m, v in sorted(per_mod.items()))
        print(f"  {pkg:32} {count:4}   ({where})")
    print(f"  {'total':32} {total:4}   in {len(public_by_package)} packages")

    allowed = load_allow_list()
    outside = set()
    outside_not_allowed = set()
    for qname, (mod, pkg, name) in internal_types.items():
        ref = re.compile(r"\b" + re.escape(qname) + r"\b")
        simple = re.compile(r"\b" + re.escape(name) + r"\b")
        for other, files in sources.items():
            if other in (mod, "taskq-architecture"):  # the boundary check itself names one
                continue
            used = any(ref.search(t) or (p == pkg and simple.search(t)) for p, t in files)
            if used:
                outside.add(qname)
                if other not in allowed.get(pkg, set()):
                    outside_not_allowed.add(qname)
    print()
    print("== Public types in internal packages")
    print(f"  public types in internal packages:                          {len(internal_types)}")
    print(f"  of them referenced from another module:                     {len(outside)}")
    print(f"  of them referenced from another module, not in allow-list:  "
          f"{len(outside_not_allowed)}   (goal 0)")
    for qname in sorted(outside_not_allowed):
        print(f"    {qname}")

    print()
    print("== Size over main sources (all modules)")
    print(f"  files:   {len(file_lines)}   lines median {percentile(file_lines, .5):.0f}, "
          f"p90 {percentile(file_lines, .9):.0f}, max {max(file_lines)}")
    small = sum(1 for s in methods if s <= 20)
    print(f"  methods: {len(methods)}   lines median {percentile(methods, .5):.0f}, "
          f"p90 {percentile(methods, .9):.0f}, max {max(methods)}, "
          f"<= 20 lines {100.0 * small / len(methods):.1f}%")

    if LIST:
        print()
        print(f"== Methods over 20 lines ({len(long_methods)})")
        for size, path, start, name in sorted(long_methods, key=lambda m: (-m[0], m[1], m[2])):
            print(f"  {size:4}  {path}:{start}  {name}")
        print()
        print("== Largest files (40)")
        for size, path in sorted(sized_files, key=lambda f: (-f[0], f[1]))[:40]:
            print(f"  {size:4}  {path}")

    print()
    print("== Duplicate pairs between sweep classes")
    tool = shutil.which("duplicates")
    if tool is None or not os.path.isdir(SWEEPS):
        print("  (the duplicates command is not on PATH, or there is no sweep folder)")
    else:
        out = subprocess.run([tool, "--repo", SWEEPS, "--most", "200"], capture_output=True,
                             text=True, check=False).stdout.splitlines()
        print("  " + (out[0] if out else "(no output)"))


if __name__ == "__main__":
    main()
