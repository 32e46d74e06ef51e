/** One operation of the generated table, as the server offers it (see `@agent-apis/codegen/tools`). */

/** The APIs the server serves. */
export type ServiceName = 'directory' | 'store' | 'trust';

/**
 * The safety class from the contract (`x-safety`, `x-spends-quota`): `read` changes nothing; `spends-quota` reads
 * but spends the key's quota (trust's scans); `write` creates, updates or deletes an ordinary record; `dangerous`
 * changes how the store takes money, ships or behaves, or leaves records the API cannot delete.
 */
export type SafetyClass = 'read' | 'write' | 'dangerous' | 'spends-quota';

/** A JSON Schema object without references. */
export type JsonSchema = { [keyword: string]: unknown };

export interface ToolOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  safety: SafetyClass;
  /** First path segment (`products` for `/products/{id}/variants.json`): the store's tool sets. */
  resource: string;
  /** `{ <path and query parameters>, body? }`. */
  inputSchema: JsonSchema;
}
