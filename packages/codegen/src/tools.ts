/**
 * The agent-tool view of a manifest (the tool server's table, `packages/mcp-server/src/gen/operations.gen.ts`): per
 * operation its id, route, a short summary, its tool safety class, the resource it belongs to, and one
 * self-contained JSON Schema of its arguments (no `$ref`, OpenAPI 3.0 `nullable` turned into type lists), which is
 * what every MCP client accepts. The schema itself is read into the manifest by {@link inlineSchema}.
 */
import { VALUE_KEYWORDS } from '@agent-apis/core/call';
import type { Manifest, ManifestOperation, SpecSchema } from '@agent-apis/core/service';
import { type OpenApiDocument, resolveRef, type Schema } from '@agent-apis/specs/openapi';

/** How deep `$ref`s are followed inside one schema; past it a schema becomes `{}` (any value). */
const MAX_SCHEMA_DEPTH = 6;
/** The longest description or summary kept (tool lists are read by models; long prose costs tokens). */
const MAX_TEXT = 160;

/** JSON Schema's own formats; OpenAPI's (`int32`, `float`, …) and made-up ones are dropped (clients warn or reject). */
const JSON_SCHEMA_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'hostname', 'ipv4', 'ipv6']);

/** Copied as they are: the checker's value keywords (it enforces every one), and `default`. */
const KEPT_KEYWORDS: ReadonlySet<string> = new Set([...VALUE_KEYWORDS, 'default']);

/** The first sentence of `text`, at most {@link MAX_TEXT} characters, on one line. */
export function shortText(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length <= MAX_TEXT ? sentence : `${sentence.slice(0, MAX_TEXT - 1).trimEnd()}…`;
}

/**
 * `raw` as a self-contained schema: references resolved (a cycle or a chain deeper than {@link MAX_SCHEMA_DEPTH}
 * becomes `{}`), `nullable` folded into `type`, composition kept as `anyOf`/`oneOf`/`allOf` of inlined schemas,
 * vendor keywords and examples dropped.
 */
export function inlineSchema(document: OpenApiDocument, raw: unknown, seen: readonly string[] = []): SpecSchema {
  if (!raw || typeof raw !== 'object') return {};
  const ref = (raw as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (seen.includes(ref) || seen.length >= MAX_SCHEMA_DEPTH) return {};
    return inlineSchema(document, resolveRef<Schema>(document, raw as Schema), [...seen, ref]);
  }
  const schema = raw as Record<string, unknown>;
  const out: SpecSchema = {};
  for (const [key, value] of Object.entries(schema)) if (KEPT_KEYWORDS.has(key)) out[key] = value;
  if (typeof schema.format === 'string' && JSON_SCHEMA_FORMATS.has(schema.format)) out.format = schema.format;
  const description = shortText(schema.description);
  if (description) out.description = description;
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum) && schema.nullable === true && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (schema.properties && typeof schema.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, unknown>).map(([name, value]) => [
        name,
        inlineSchema(document, value, seen),
      ]),
    );
  }
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required;
  if (schema.items) out.items = inlineSchema(document, schema.items, seen);
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties =
      typeof schema.additionalProperties === 'boolean'
        ? schema.additionalProperties
        : inlineSchema(document, schema.additionalProperties, seen);
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) out[keyword] = list.map((entry) => inlineSchema(document, entry, seen));
  }
  return out;
}

function resourceOf(path: string): string {
  const first = path.split('/').find((segment) => segment !== '' && !segment.startsWith('{')) ?? '';
  return first.replace(/\.json$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * One operation as the tool server lists it: the contract's class, or `spends-quota` for a read that spends the
 * key's quota; and its resource, the first path segment without `.json` (the store's tool sets).
 */
export function toolRow(operation: ManifestOperation) {
  const { id, method, path, summary, inputSchema } = operation;
  const safety = operation.spendsQuota ? ('spends-quota' as const) : operation.safety;
  return { id, method, path, summary, safety, resource: resourceOf(path), inputSchema };
}

/** Source of the tool server's `operations.gen.ts`: one table per service (`<service>Operations`). */
export function renderToolTable(manifests: readonly Manifest[]): string {
  const sources = manifests.map((manifest) => `${manifest.spec.file} (source sha256 ${manifest.spec.sourceSha256})`);
  const sections = manifests.map(
    (manifest) =>
      `/** The ${manifest.service} API's ${manifest.operations.length} operations. */\nexport const ${manifest.service}Operations: readonly ToolOperation[] = ${JSON.stringify(manifest.operations.map(toolRow))};\n`,
  );
  return `// @generated by @agent-apis/codegen from ${sources.join(', ')}. Do not edit: run \`pnpm generate\`.
import type { ToolOperation } from '../operation.js';

${sections.join('\n')}`;
}
