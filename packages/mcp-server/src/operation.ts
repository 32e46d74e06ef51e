/** One operation of the generated table, as the server offers it (emitted by `@agent-apis/codegen/tools`). */
import type { ManifestOperation } from '@agent-apis/core/service';

export type { SpecSchema } from '@agent-apis/core/service';

/** The APIs the server serves. */
export type ServiceName = 'directory' | 'store' | 'trust';

/**
 * The tool's safety class, from the manifest: `read` changes nothing; `spends-quota` reads but spends the key's
 * quota (trust's scans); `write` creates, updates or deletes an ordinary record; `dangerous` changes how the store
 * takes money, ships or behaves, or leaves records the API cannot delete.
 */
export type SafetyClass = ManifestOperation['safety'] | 'spends-quota';

/** A manifest row as a tool: its class folded with `spendsQuota`, and its resource (the first path segment). */
export type ToolOperation = Pick<ManifestOperation, 'id' | 'path' | 'summary' | 'inputSchema'> & {
  method: string;
  safety: SafetyClass;
  /** First path segment (`products` for `/products/{id}/variants.json`): the store's tool sets. */
  resource: string;
};
