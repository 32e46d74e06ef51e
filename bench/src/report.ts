/** Plain-text tables for the console. */

/** Renders `rows` as an aligned table with the given columns (key → heading). */
export function table<Row extends object>(
  rows: readonly Row[],
  columns: Partial<Record<keyof Row & string, string>>,
): string {
  const keys = Object.keys(columns) as (keyof Row & string)[];
  const cells = rows.map((row) => keys.map((key) => String(row[key] ?? '')));
  const headings = keys.map((key) => columns[key] ?? key);
  const widths = headings.map((heading, index) =>
    Math.max(heading.length, ...cells.map((line) => line[index]?.length ?? 0)),
  );
  const line = (values: readonly string[]) => values.map((value, index) => value.padEnd(widths[index] ?? 0)).join('  ');
  return [line(headings), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
