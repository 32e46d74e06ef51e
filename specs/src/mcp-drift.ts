/**
 * Drift of the agent tool servers: the pinned tools/list result (`specs/dist/<service>.mcp-tools.json`, checked
 * against its lock) against the one the server gives now. The live server is asked when its address and credentials
 * are set (STORE_LOGIN + STORE_AUTH_TOKEN, or the earlier STORE_MCP_LOGIN_KEY + STORE_MCP_AUTH_TOKEN when neither of
 * those is set; STORE_MCP_URL, optional only while STORE_BASE_URL is unset or on the vendor's host; DIRECTORY_MCP_URL), even when SPECS_MIRROR is set (the mirror holds the
 * pinned bytes that `specs:sync` needs); otherwise `$SPECS_MIRROR/<service>/mcp-tools.json` is compared; with neither, the server is reported skipped. Every
 * difference is classified from the point of view of a client built from the pin:
 *
 * - breaking: a tool removed; a new required argument, an optional argument made required, an argument removed
 *   from a closed schema; a narrowed type, enum, range, length, pattern or format; any change this module cannot
 *   classify (counted as breaking, to be looked at);
 * - not breaking: a tool added; a new optional argument; a requirement dropped; a widened type, enum or range;
 *   description, annotation and output schema changes (the generated clients type results loosely).
 *
 * As a command (`pnpm mcp:diff [service ...]`) it prints the changes, writes `specs/reports/mcp-drift.{json,md}` (or into `$SPECS_REPORTS_DIR`) and exits
 * 1 on breaking drift or when a list cannot be read.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  isMcpService,
  MCP_SERVICES,
  type McpServiceName,
  type McpTool,
  missingServerAccess,
  parseToolList,
  readSyncedToolList,
  readUpstreamTools,
} from './mcp-tools.ts';
import { DEFAULT_SPECS_ROOT, mirrorFromEnv } from './services.ts';
import type { SourceOptions } from './source.ts';

type Schema = Record<string, unknown>;

/** Where `pnpm mcp:diff` writes its report, beside the spec drift report. */
const REPORTS_DIR = process.env.SPECS_REPORTS_DIR ?? join(DEFAULT_SPECS_ROOT, 'reports');

export interface ToolChange {
  breaking: boolean;
  tool: string;
  /** The argument the change is about (`arguments.limit`), or `tool` for the tool as a whole. */
  where: string;
  detail: string;
}

const NOT_CLASSIFIED = 'not classified, so treated as breaking';

/** The JSON types a schema allows (undefined: any). `integer` is listed on its own; `number` includes it. */
function typesOf(schema: Schema): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]);
}

function accepts(types: Set<string> | undefined, type: string): boolean {
  return !types || types.has(type) || (type === 'integer' && types.has('number'));
}

function list(types: Set<string> | undefined): string {
  return types ? [...types].join(' | ') : 'any';
}

/** Keywords compared one by one below; any other keyword that changes is reported unclassified. */
const COMPARED = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
  'uniqueItems',
]);
const DOCUMENTATION = new Set(['description', 'title', 'examples', 'default', '$comment']);

/** Lower bounds: raising or adding one narrows; upper bounds: lowering or adding one narrows. */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'];

/** How the set of values accepted by `before` changed in `after`, keyword by keyword. */
export function diffSchema(tool: string, before: Schema, after: Schema, where = 'arguments'): ToolChange[] {
  const changes: ToolChange[] = [];
  const note = (breaking: boolean, detail: string, at = where) => changes.push({ breaking, tool, where: at, detail });

  const [typesBefore, typesAfter] = [typesOf(before), typesOf(after)];
  if (list(typesBefore) !== list(typesAfter)) {
    const lost = typesBefore ? [...typesBefore].some((type) => !accepts(typesAfter, type)) : typesAfter !== undefined;
    note(lost, `type ${lost ? 'narrowed' : 'widened'} from ${list(typesBefore)} to ${list(typesAfter)}`);
  }

  const enumOf = (s: Schema) => (s.const !== undefined ? [s.const] : (s.enum as unknown[] | undefined));
  const [enumBefore, enumAfter] = [enumOf(before), enumOf(after)];
  const key = (value: unknown) => JSON.stringify(value);
  if (enumAfter && !enumBefore) note(true, `values restricted to ${enumAfter.map(key).join(', ')}`);
  if (enumBefore && !enumAfter) note(false, 'value restriction removed');
  if (enumBefore && enumAfter) {
    const removed = enumBefore.filter((v) => !enumAfter.some((w) => key(w) === key(v)));
    const added = enumAfter.filter((v) => !enumBefore.some((w) => key(w) === key(v)));
    if (removed.length > 0) note(true, `values no longer accepted: ${removed.map(key).join(', ')}`);
    if (added.length > 0) note(false, `values now also accepted: ${added.map(key).join(', ')}`);
  }

  for (const [keywords, narrowsWhenHigher] of [
    [LOWER_BOUNDS, true],
    [UPPER_BOUNDS, false],
  ] as const) {
    for (const keyword of keywords) {
      const [from, to] = [before[keyword] as number | undefined, after[keyword] as number | undefined];
      if (from === to) continue;
      const narrowed = from === undefined || (to !== undefined && (narrowsWhenHigher ? to > from : to < from));
      note(
        narrowed,
        `${keyword} ${from === undefined ? 'added' : to === undefined ? 'removed' : 'changed'}: ${from ?? '-'} → ${to ?? '-'}`,
      );
    }
  }

  for (const keyword of ['pattern', 'format']) {
    if (before[keyword] !== after[keyword]) {
      note(
        after[keyword] !== undefined,
        `${keyword} ${String(before[keyword] ?? '-')} → ${String(after[keyword] ?? '-')}`,
      );
    }
  }
  if (Boolean(before.uniqueItems) !== Boolean(after.uniqueItems)) {
    note(Boolean(after.uniqueItems), `uniqueItems ${Boolean(before.uniqueItems)} → ${Boolean(after.uniqueItems)}`);
  }

  changes.push(...diffProperties(tool, before, after, where));

  if (before.items || after.items) {
    changes.push(...diffSchema(tool, (before.items ?? {}) as Schema, (after.items ?? {}) as Schema, `${where}[]`));
  }

  for (const keyword of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (COMPARED.has(keyword) || DOCUMENTATION.has(keyword)) continue;
    const [from, to] = [before, after].map((schema) => (Object.hasOwn(schema, keyword) ? schema[keyword] : undefined));
    if (JSON.stringify(from) !== JSON.stringify(to)) note(true, `${keyword} changed (${NOT_CLASSIFIED})`);
  }
  return changes;
}

/**
 * A schema's properties as a Map of its own entries: an argument named `constructor`, `toString` or `__proto__`
 * is an argument like any other, never something inherited from `Object.prototype`.
 */
function propertiesOf(schema: Schema): Map<string, Schema> {
  const properties = schema.properties;
  if (properties === null || typeof properties !== 'object') return new Map();
  return new Map(Object.entries(properties as Record<string, Schema>));
}

function diffProperties(tool: string, before: Schema, after: Schema, where: string): ToolChange[] {
  const changes: ToolChange[] = [];
  const propsBefore = propertiesOf(before);
  const propsAfter = propertiesOf(after);
  const requiredBefore = new Set((before.required as string[] | undefined) ?? []);
  const requiredAfter = new Set((after.required as string[] | undefined) ?? []);
  const closedAfter = after.additionalProperties === false;
  const note = (breaking: boolean, at: string, detail: string) => changes.push({ breaking, tool, where: at, detail });

  for (const name of new Set([...propsBefore.keys(), ...propsAfter.keys()])) {
    const at = `${where}.${name}`;
    const [from, to] = [propsBefore.get(name), propsAfter.get(name)];
    if (from && !to) {
      note(closedAfter, at, closedAfter ? 'argument removed (now refused)' : 'argument removed (still accepted)');
      continue;
    }
    if (!from && to) {
      const required = requiredAfter.has(name);
      note(required, at, `new ${required ? 'required' : 'optional'} argument`);
      continue;
    }
    if (from && to) {
      if (!requiredBefore.has(name) && requiredAfter.has(name)) note(true, at, 'now required');
      if (requiredBefore.has(name) && !requiredAfter.has(name)) note(false, at, 'no longer required');
      changes.push(...diffSchema(tool, from, to, at));
    }
  }
  for (const name of requiredAfter) {
    if (!propsAfter.has(name) && !requiredBefore.has(name)) note(true, `${where}.${name}`, 'now required');
  }

  const [openBefore, openAfter] = [before.additionalProperties, after.additionalProperties];
  if (JSON.stringify(openBefore) !== JSON.stringify(openAfter)) {
    if (typeof openBefore === 'object' && typeof openAfter === 'object') {
      changes.push(...diffSchema(tool, openBefore as Schema, openAfter as Schema, `${where}.*`));
    } else {
      const narrowed = openAfter === false || (typeof openAfter === 'object' && openBefore !== false);
      note(narrowed, where, `additional properties ${describeOpen(openBefore)} → ${describeOpen(openAfter)}`);
    }
  }
  return changes;
}

function describeOpen(value: unknown): string {
  return value === false ? 'refused' : value === undefined || value === true ? 'accepted' : 'checked by a schema';
}

/** Every difference between two tool lists, classified. */
export function diffToolLists(pinned: readonly McpTool[], current: readonly McpTool[]): ToolChange[] {
  const changes: ToolChange[] = [];
  const now = new Map(current.map((tool) => [tool.name, tool]));
  const before = new Map(pinned.map((tool) => [tool.name, tool]));
  for (const tool of pinned) {
    const next = now.get(tool.name);
    if (!next) {
      changes.push({ breaking: true, tool: tool.name, where: 'tool', detail: 'tool removed' });
      continue;
    }
    changes.push(...diffSchema(tool.name, tool.inputSchema, next.inputSchema));
    for (const field of ['description', 'title', 'annotations', 'outputSchema'] as const) {
      if (JSON.stringify(tool[field]) !== JSON.stringify(next[field])) {
        changes.push({ breaking: false, tool: tool.name, where: 'tool', detail: `${field} changed` });
      }
    }
  }
  for (const tool of current) {
    if (!before.has(tool.name)) changes.push({ breaking: false, tool: tool.name, where: 'tool', detail: 'tool added' });
  }
  return changes;
}

export interface ToolServerDrift {
  service: McpServiceName;
  pinnedSha256: string;
  /** Where the current list was read (server URL or mirror file); undefined when skipped. */
  currentOrigin?: string;
  currentSha256?: string;
  changes: ToolChange[];
  /** Why the server was not compared (not configured). */
  skipped?: string;
  /** Why the comparison failed (unreachable, refused, not a tools/list result). */
  error?: string;
}

/** The store vendor's own hosts: its REST API and its tool server live under this domain. */
const STORE_VENDOR_DOMAIN = 'jumpseller.com';

/**
 * Why the store's tool server may not be assumed to be the vendor's (`https://mcp.jumpseller.com`), or undefined
 * when it may: credentials go only where the user pointed them. With STORE_MCP_URL set it is used; else the vendor's
 * address applies only when the store's base URL (STORE_BASE_URL) is unset or on the vendor's own host, since a
 * store elsewhere (a sandbox, a proxy, a stand-in) would otherwise send its credentials to the vendor. The reason
 * names variables only, never the base URL (which may carry a user or a token).
 */
export function storeToolServerNotPointed(env: Record<string, string | undefined>): string | undefined {
  if (env.STORE_MCP_URL?.trim()) return undefined;
  const base = env.STORE_BASE_URL?.trim();
  if (!base) return undefined;
  let host = '';
  try {
    host = new URL(base).hostname.toLowerCase();
  } catch {
    host = '';
  }
  if (host === STORE_VENDOR_DOMAIN || host.endsWith(`.${STORE_VENDOR_DOMAIN}`)) return undefined;
  return (
    "not configured: STORE_BASE_URL is not the vendor's host, so the store's credentials are not sent to the " +
    "vendor's tool server; set STORE_MCP_URL to this store's tool server"
  );
}

/**
 * Compares one server's pinned tool list with its current one: the live server's when it is configured in
 * `options.env`, else the mirror's. Never throws: problems land in `error`.
 */
export async function checkToolDrift(service: McpServiceName, options: SourceOptions = {}): Promise<ToolServerDrift> {
  const pinned = await readSyncedToolList(service);
  const base = { service, pinnedSha256: pinned.sha256, changes: [] };
  const env = options.env ?? process.env;
  const notPointed = service === 'store' ? storeToolServerNotPointed(env) : undefined;
  const missing = notPointed ? ['STORE_MCP_URL'] : missingServerAccess(pinned.lock, env);
  if (missing.length > 0 && !options.mirror) {
    return {
      ...base,
      skipped: notPointed
        ? `${notPointed}, or set SPECS_MIRROR`
        : `no live server configured (set ${missing.join(', ')}) and no SPECS_MIRROR`,
    };
  }
  try {
    const current = await readUpstreamTools(
      pinned.lock,
      missing.length === 0 ? { ...options, mirror: undefined } : options,
    );
    const list = parseToolList(current.bytes, current.origin);
    return {
      ...base,
      currentOrigin: current.origin,
      currentSha256: current.sha256,
      changes: current.sha256 === pinned.sha256 ? [] : diffToolLists(pinned.list.tools, list.tools),
    };
  } catch (error) {
    return { ...base, error: (error as Error).message };
  }
}

export function driftFailed(drifts: readonly ToolServerDrift[]): boolean {
  return drifts.some((drift) => drift.error !== undefined || drift.changes.some((change) => change.breaking));
}

/** The drift report as Markdown. */
export function renderToolDrift(drifts: readonly ToolServerDrift[]): string {
  const lines = [
    '# Agent tool server drift',
    '',
    '| server | result | breaking | not breaking |',
    '| --- | --- | --- | --- |',
  ];
  for (const drift of drifts) {
    const breaking = drift.changes.filter((c) => c.breaking).length;
    const result = drift.skipped
      ? `skipped: ${drift.skipped}`
      : drift.error
        ? 'ERROR'
        : drift.changes.length === 0
          ? 'matches the pin'
          : breaking > 0
            ? 'BREAKING drift'
            : 'drift, not breaking';
    lines.push(`| ${drift.service} | ${result} | ${breaking} | ${drift.changes.length - breaking} |`);
  }
  for (const drift of drifts) {
    if (drift.error) lines.push('', `## ${drift.service}: error`, '', '```', drift.error, '```');
    if (drift.changes.length === 0) continue;
    lines.push(
      '',
      `## ${drift.service}`,
      '',
      `pinned sha256 ${drift.pinnedSha256}, current sha256 ${drift.currentSha256} (${drift.currentOrigin})`,
      '',
    );
    lines.push('| class | tool | where | change |', '| --- | --- | --- | --- |');
    for (const change of drift.changes) {
      lines.push(
        `| ${change.breaking ? 'breaking' : 'not breaking'} | ${change.tool} | ${change.where} | ${change.detail} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Checks each tool server's drift, writes `mcp-drift.{json,md}` into the reports folder and returns the drifts,
 * the markdown and the report file. `pnpm mcp:diff` and `pnpm specs:diff` both run it.
 */
export async function runToolDrift(
  services: readonly McpServiceName[],
  options: { mirror?: string } = {},
): Promise<{ drifts: ToolServerDrift[]; markdown: string; reportFile: string }> {
  const drifts: ToolServerDrift[] = [];
  for (const service of services)
    drifts.push(await checkToolDrift(service, options.mirror ? { mirror: options.mirror } : {}));
  const markdown = renderToolDrift(drifts);
  await mkdir(REPORTS_DIR, { recursive: true });
  await writeFile(join(REPORTS_DIR, 'mcp-drift.json'), `${JSON.stringify(drifts, null, 2)}\n`);
  const reportFile = join(REPORTS_DIR, 'mcp-drift.md');
  await writeFile(reportFile, markdown);
  return { drifts, markdown, reportFile };
}

/** `pnpm mcp:diff [service ...]`. */
async function main(args: string[]): Promise<number> {
  const unknown = args.find((arg) => !isMcpService(arg));
  if (unknown) {
    console.error(`unknown tool server "${unknown}"; servers: ${MCP_SERVICES.join(', ')}`);
    return 2;
  }
  const services = args.length > 0 ? (args as McpServiceName[]) : [...MCP_SERVICES];
  const { drifts, markdown, reportFile } = await runToolDrift(services, { mirror: mirrorFromEnv() });
  console.log(`${markdown}\nreport: ${reportFile}`);
  return driftFailed(drifts) ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
