package io.taskq.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A human-readable table: a header and rows, columns padded to their widest cell. */
final class Table {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  Table(String... header) {
    this.header = Arrays.asList(header);
  }

  Table row(@Nullable Object... cells) {
    List<String> row = new ArrayList<>();
    for (Object cell : cells) {
      row.add(cell == null ? "-" : oneLine(cell.toString()));
    }
    rows.add(row);
    return this;
  }

  private static String oneLine(String s) {
    String flat = s.replace('\n', ' ').replace('\r', ' ');
    return flat.length() > 80 ? flat.substring(0, 77) + "..." : flat;
  }

  void print(PrintStream out) {
    int[] widths = new int[header.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    line(out, header, widths);
    for (List<String> row : rows) {
      line(out, row, widths);
    }
  }

  private static void line(PrintStream out, List<String> cells, int[] widths) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      b.append(cell);
      if (i < cells.size() - 1) {
        b.append(" ".repeat(widths[i] - cell.length() + 2));
      }
    }
    out.println(b.toString().stripTrailing());
  }
}
