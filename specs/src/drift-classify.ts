/**
 * Drift detection (`pnpm specs:diff`): compares each fetched service's pinned upstream document with the one
 * upstream serves now, and classifies every change as breaking, an addition, or other (documentation). Breaking
 * also covers a request bound narrowed (a `maximum`/`maxItems`/`maxLength` added or lowered, a minimum raised).
 *
 * The classifier is optic 1.0.9 (the `@useoptic/*` libraries the `optic diff --check` CLI is made of, with its
 * standard `breaking-changes` ruleset). It reads OpenAPI 3.0 and 3.1 alike, which we need: store is 3.0.3,
 * directory 3.1.0, and openapi-diff 0.24.1 refuses 3.1. We call the libraries, not the CLI, because
 * - `optic diff --json` lists the changes but leaves the rule results (what is breaking) out, so the CLI's
 *   verdict would have to be scraped from its human-readable output;
 * - the ruleset builds facts for every operation of both documents (about 11 s for the store document); in
 *   process we first drop the operations that are identical on both sides, which takes a diff to about 1 s;
 * - the CLI package carries the telemetry (Segment, Sentry) and a proxy server; these libraries do not.
 * No ajv override is needed: the crash the brief saw came from npm hoisting one ajv copy under another's plugins;
 * with pnpm each package gets the ajv it asks for (checked: these tests, and `optic diff --check` on both
 * final documents in a scratch pnpm install), and Prism's ajv stays as it was.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { checkOpenAPIVersion, denormalize, parseOpenAPIWithSourcemap } from '@useoptic/openapi-io';
import { diff as diffDocuments, type ObjectDiff, Severity, typeofDiff } from '@useoptic/openapi-utilities';
import { RuleRunner } from '@useoptic/rulesets-base';
import { BreakingChangesRuleset } from '@useoptic/standard-rulesets';
import { diffToolLists, type ToolChange } from './mcp-drift.ts';
import type { McpTool } from './mcp-tools.ts';
import { HTTP_METHODS, type OpenApiDocument } from './openapi.ts';
import { applyOverlay, type Overlay, OverlayError } from './overlay.ts';
import type { ServiceName } from './services.ts';

/** breaking → major, addition (operation, response, optional field or parameter) → minor, other → patch. */
export type ChangeKind = 'breaking' | 'addition' | 'other';
export type Bump = 'major' | 'minor' | 'patch';

export interface SpecChange {
  kind: ChangeKind;
  /** The operation and the place in it, e.g. `GET /taxes.json response 200 application/json body field tax`. */
  where: string;
  /** What happened there (for breaking changes: optic's rule and message). */
  detail: string;
}

/** How the two documents were put side by side. */
export type ComparisonBasis =
  /** Both sides with our overlay applied: the diff speaks of what the generated clients see. */
  | 'overlay'
  /** Both sides with the overlay minus the actions that no longer apply to the current document. */
  | 'partial-overlay'
  /** The raw upstream documents (the overlay does not apply to the pinned side without its stale actions). */
  | 'raw';

export function parseDocument(bytes: Uint8Array): OpenApiDocument {
  return JSON.parse(new TextDecoder().decode(bytes)) as OpenApiDocument;
}

function describeAction(overlay: Overlay, index: number): string {
  const action = overlay.actions[index];
  return `#${index + 1} ${action?.target ?? ''}${action?.description ? ` (${action.description})` : ''}`;
}

/** Indexes of the overlay actions that fail on `document` when applied in order (each one after the last good). */
function staleActionIndexes(document: OpenApiDocument, overlay: Overlay): number[] {
  const stale: number[] = [];
  let current = document;
  overlay.actions.forEach((action, index) => {
    try {
      current = applyOverlay(current, { ...overlay, actions: [action] });
    } catch (error) {
      if (!(error instanceof OverlayError)) throw error;
      stale.push(index);
    }
  });
  return stale;
}

/** Applies the overlay to both sides; what it cannot repair on the current side is left out on both. */
export function overlaidPair(pinned: OpenApiDocument, current: OpenApiDocument, overlay: Overlay) {
  try {
    const pair = { before: applyOverlay(pinned, overlay), after: applyOverlay(current, overlay) };
    return { ...pair, basis: 'overlay' as const, stale: [] };
  } catch (error) {
    if (!(error instanceof OverlayError)) throw error;
  }
  const staleIndexes = staleActionIndexes(current, overlay);
  const stale = staleIndexes.map((index) => describeAction(overlay, index));
  const reduced = { ...overlay, actions: overlay.actions.filter((_, index) => !staleIndexes.includes(index)) };
  try {
    const pair = { before: applyOverlay(pinned, reduced), after: applyOverlay(current, reduced) };
    return { ...pair, basis: 'partial-overlay' as const, stale };
  } catch (error) {
    if (!(error instanceof OverlayError)) throw error;
    return { before: pinned, after: current, basis: 'raw' as const, stale };
  }
}

type Json = Record<string, unknown>;

/** Optic's view of a document: every `$ref` resolved, path-level parameters moved into the operations. */
async function loadForOptic(document: OpenApiDocument, file: string) {
  await writeFile(file, JSON.stringify(document));
  const parsed = await parseOpenAPIWithSourcemap(file);
  const version = checkOpenAPIVersion(parsed.jsonLike);
  if (version === '2.x.x') throw new Error(`${file}: Swagger 2.0 documents are not supported`);
  return denormalize(parsed, version).jsonLike as unknown as Json;
}

/**
 * Drops from both sides every operation that is identical in both (after dereferencing). Such operations yield no
 * diffs, so no rule fires for them, but the ruleset would still build facts for all their fields.
 */
function dropUnchangedOperations(before: Json, after: Json): void {
  const beforePaths = (before.paths ?? {}) as Record<string, Json>;
  const afterPaths = (after.paths ?? {}) as Record<string, Json>;
  for (const [path, beforeItem] of Object.entries(beforePaths)) {
    const afterItem = afterPaths[path];
    if (!afterItem) continue;
    for (const method of HTTP_METHODS) {
      if (method in beforeItem && isDeepStrictEqual(beforeItem[method], afterItem[method])) {
        delete beforeItem[method];
        delete afterItem[method];
      }
    }
    const methodsLeft = HTTP_METHODS.some((method) => method in beforeItem || method in afterItem);
    if (!methodsLeft && isDeepStrictEqual(beforeItem, afterItem)) {
      delete beforePaths[path];
      delete afterPaths[path];
    }
  }
}

function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function valueAt(document: unknown, segments: string[]): unknown {
  return segments.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
}

/** The part of a pointer below `schema`: `items/properties/tax/properties/name/type` → ` field [].tax.name (type)`. */
function describeSchemaPath(segments: string[]): string {
  let field = '';
  const rest: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (rest.length === 0 && segment === 'properties' && i + 1 < segments.length) {
      field += `${field ? '.' : ''}${segments[++i]}`;
    } else if (rest.length === 0 && segment === 'items') {
      field += '[]';
    } else {
      rest.push(segment);
    }
  }
  return `${field ? ` field ${field}` : ''}${rest.length > 0 ? ` (${rest.join('/')})` : ''}`;
}

/** Readable place of a JSON pointer into an optic document, e.g. `GET /taxes.json query parameter q`. */
function describePointer(pointer: string, document: Json): string {
  const segments = pointerSegments(pointer);
  if (segments[0] !== 'paths' || segments.length < 2) return segments.join('/') || '(document)';
  if (segments.length === 2) {
    const item = (valueAt(document, segments) ?? {}) as Json;
    const methods = HTTP_METHODS.filter((method) => method in item).map((method) => method.toUpperCase());
    return `${methods.join(', ') || 'path'} ${segments[1]}`;
  }
  const [, path, method, ...rest] = segments as [string, string, string, ...string[]];
  let where = `${method.toUpperCase()} ${path}`;
  const [section, key] = rest;
  if (section === 'parameters' && key !== undefined) {
    const parameter = valueAt(document, segments.slice(0, 5)) as { in?: string; name?: string } | undefined;
    where += ` ${parameter?.in ?? ''} parameter ${parameter?.name ?? key}`;
    const tail = rest.slice(2);
    return tail[0] === 'schema'
      ? where + describeSchemaPath(tail.slice(1))
      : `${where}${tail.length ? ` (${tail.join('/')})` : ''}`;
  }
  let body = rest;
  if (section === 'responses' && key !== undefined) {
    where += ` response ${key}`;
    body = rest.slice(2);
    if (body[0] === 'headers' && body[1]) {
      return `${where} header ${body[1]}${body.length > 2 ? ` (${body.slice(2).join('/')})` : ''}`;
    }
  } else if (section === 'requestBody') {
    where += ' request body';
    body = rest.slice(1);
  } else if (rest.length > 0) {
    return `${where} ${rest.join('/')}`;
  }
  if (body[0] === 'content' && body[1]) {
    where += ` ${body[1]}`;
    return body[2] === 'schema'
      ? `${where} body${describeSchemaPath(body.slice(3))}`
      : `${where} ${body.slice(2).join('/')}`;
  }
  return body.length > 0 ? `${where} (${body.join('/')})` : where;
}

/** Keywords that only document: changing them changes no request or response. */
const DOCUMENTATION_KEYS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  'deprecated',
  'tags',
]);

/** Keys whose children are names chosen by the API (a field called `description`, a header called `x-id`). */
const NAME_CONTAINERS = new Set(['properties', 'headers']);

/** Whether the pointer goes through a documentation keyword or an `x-` extension. */
function isDocumentation(segments: string[]): boolean {
  return segments.some(
    (segment, i) =>
      !NAME_CONTAINERS.has(segments[i - 1] ?? '') && (DOCUMENTATION_KEYS.has(segment) || segment.startsWith('x-')),
  );
}

function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Bounds whose lower value accepts less (an upper bound) and whose higher value accepts less (a lower bound). */
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxItems', 'maxLength', 'maxProperties']);
const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minItems', 'minLength', 'minProperties']);

/**
 * Whether a diff narrows what an operation accepts: a bound of a request parameter or request body schema added,
 * an upper bound lowered, or a lower bound raised. A request the clients send today may then be refused, so it is
 * breaking; optic's ruleset does not look at bounds. Returns the rule's name, or undefined. A bound on a response
 * narrows what the clients receive, which breaks nobody.
 */
function requestNarrowing(
  segments: string[],
  from: unknown,
  to: unknown,
  type: ReturnType<typeof typeofDiff>,
): string | undefined {
  const [paths, , , section] = segments;
  if (paths !== 'paths' || (section !== 'parameters' && section !== 'requestBody')) return undefined;
  const keyword = segments.at(-1) ?? '';
  // A bound's own keyword, not a field or parameter that happens to be called `maximum`.
  if (NAME_CONTAINERS.has(segments.at(-2) ?? '') || !segments.includes('schema')) return undefined;
  const upper = UPPER_BOUNDS.has(keyword);
  if (!upper && !LOWER_BOUNDS.has(keyword)) return undefined;
  const rule = `narrows what the request accepts (${keyword})`;
  // A boolean exclusiveMaximum (OpenAPI 3.0) is a change of the bound too.
  if (type === 'added') return typeof to === 'number' || to === true ? rule : undefined;
  if (type !== 'changed') return undefined;
  if (typeof from === 'number' && typeof to === 'number') return (upper ? to < from : to > from) ? rule : undefined;
  return from === false && to === true ? rule : undefined;
}

/**
 * One line per diff that no breaking result covers; reusable components are seen through the operations. A bound
 * that narrows a request is breaking here (`requestNarrowing`).
 */
function nonBreakingChanges(diffs: ObjectDiff[], breakingPointers: string[], before: Json, after: Json): SpecChange[] {
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  const changes: SpecChange[] = [];
  for (const item of diffs) {
    const pointer = item.after ?? item.before;
    if (pointer === undefined || breakingPointers.some((breaking) => related(pointer, breaking))) continue;
    const segments = pointerSegments(pointer);
    if (segments[0] === 'components' && segments[1] !== 'securitySchemes') continue;
    const type = typeofDiff(item);
    const document = type === 'removed' ? before : after;
    let detail: string = type;
    if (type === 'changed') {
      const from = valueAt(before, pointerSegments(item.before as string));
      const to = valueAt(after, segments);
      detail = `changed ${shortValue(from)} → ${shortValue(to)}`;
    }
    const where = describePointer(pointer, document);
    const narrowing = requestNarrowing(
      segments,
      valueAt(before, pointerSegments(item.before ?? '')),
      valueAt(after, segments),
      type,
    );
    if (narrowing) {
      changes.push({ kind: 'breaking', where, detail: `${narrowing}: ${detail}` });
      continue;
    }
    const kind: ChangeKind = type === 'added' && !isDocumentation(segments) ? 'addition' : 'other';
    changes.push({ kind, where, detail });
  }
  return changes;
}

/** Classifies every difference between two documents with optic's breaking-changes ruleset. */
export async function classifyChanges(before: OpenApiDocument, after: OpenApiDocument): Promise<SpecChange[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-apis-drift-'));
  try {
    const [from, to] = await Promise.all([
      loadForOptic(before, join(dir, 'before.json')),
      loadForOptic(after, join(dir, 'after.json')),
    ]);
    dropUnchangedOperations(from, to);
    const diffs = diffDocuments(from, to);
    const results = await new RuleRunner([new BreakingChangesRuleset()]).runRules({
      context: {},
      diffs,
      fromSpec: from as never,
      toSpec: to as never,
    });
    const failed = results.filter((r) => !r.passed && !r.exempted && r.severity === Severity.Error);
    // A removed operation, response or property also fails a rule for everything inside it; say it once.
    const removed = failed.filter((r) => r.type === 'removed').map((r) => `${r.location.jsonPath}/`);
    const outermost = failed.filter((r) => !removed.some((prefix) => r.location.jsonPath.startsWith(prefix)));
    const breaking = outermost.map((r) => ({
      kind: 'breaking' as const,
      where: r.where,
      detail: `${r.name}: ${r.error ?? 'breaking'}`,
    }));
    const breakingPointers = failed.map((r) => r.location.jsonPath);
    const others = nonBreakingChanges(diffs, breakingPointers, from, to);
    return [
      ...breaking,
      ...others.filter((c) => c.kind === 'breaking'),
      ...others.filter((c) => c.kind === 'addition'),
      ...others.filter((c) => c.kind === 'other'),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function bumpFor(changes: SpecChange[]): Bump | undefined {
  if (changes.some((change) => change.kind === 'breaking')) return 'major';
  if (changes.some((change) => change.kind === 'addition')) return 'minor';
  return changes.length > 0 ? 'patch' : undefined;
}

/** What `specs:diff` found for one service: the pinned and current documents compared. */
export interface ServiceDrift {
  service: ServiceName;
  /** The npm package generated from this service. */
  packageName: string;
  pinnedSha256: string;
  currentSha256: string;
  /** Where the current document was read (URL or mirror file). */
  currentOrigin: string;
  drifted: boolean;
  basis?: ComparisonBasis;
  /** Overlay actions (by description and target) that select nothing in the current document. */
  staleOverlayActions: string[];
  changes: SpecChange[];
  /** The release this drift calls for; undefined when nothing the clients see changed. */
  bump?: Bump;
}

/**
 * The tool-list rule: our own tool server's `tools/list` (`packages/mcp-server/tools-list.json`, the pin) against
 * what the server lists now, with the tool servers' classifier (`diffToolLists`). A change that breaks an agent or
 * client built against the pin (a tool removed, an argument narrowed or newly required) is `breaking`, so the
 * release is major; a tool or an optional argument added is an addition (minor); descriptions, hints and output
 * schemas are other (patch).
 */
export function classifyToolListChanges(changes: readonly ToolChange[]): SpecChange[] {
  const kindOf = (change: ToolChange): ChangeKind =>
    change.breaking
      ? 'breaking'
      : change.detail === 'tool added' || /^new optional|values now also accepted/.test(change.detail)
        ? 'addition'
        : 'other';
  return changes.map((change) => ({
    kind: kindOf(change),
    where: `tool ${change.tool} ${change.where}`,
    detail: change.detail,
  }));
}

/** The package the tool-list rule releases, and the changeset a difference calls for (undefined: none). */
export const TOOL_SERVER_PACKAGE = '@agent-apis/mcp-server';

export function toolListChangeset(pinned: readonly McpTool[], current: readonly McpTool[]): string | undefined {
  const changes = classifyToolListChanges(diffToolLists(pinned, current));
  const bump = bumpFor(changes);
  if (!bump) return undefined;
  const ordered = [
    ...changes.filter((change) => change.kind === 'breaking'),
    ...changes.filter((change) => change.kind === 'addition'),
    ...changes.filter((change) => change.kind === 'other'),
  ];
  const counts = (kind: ChangeKind) => changes.filter((change) => change.kind === kind).length;
  return [
    '---',
    `"${TOOL_SERVER_PACKAGE}": ${bump}`,
    '---',
    '',
    `The tool server's tools/list changed against tools-list.json: ${counts('breaking')} breaking, ${counts('addition')} addition(s), ${counts('other')} other.`,
    '',
    ...ordered.slice(0, 30).map((change) => `- ${change.kind}: ${change.where}: ${change.detail}`),
    ...(ordered.length > 30 ? [`- ... and ${ordered.length - 30} more`] : []),
    '',
  ].join('\n');
}
