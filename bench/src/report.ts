/** Plain-text tables for the console, from rows of objects. */
import { table as textTable } from '@agent-apis/specs/report';

/** Renders `rows` as an aligned table with the given columns (key → heading). */
export function table<Row extends object>(
  rows: readonly Row[],
  columns: Partial<Record<keyof Row & string, string>>,
): string {
  const keys = Object.keys(columns) as (keyof Row & string)[];
  return textTable(
    keys.map((key) => columns[key] ?? key),
    rows.map((row) => keys.map((key) => String(row[key] ?? ''))),
  );
}
