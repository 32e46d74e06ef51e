/**
 * `tools/list` as the major clients check it: names (the Anthropic and OpenAI tool-name pattern, 64 characters with
 * Claude Code's `mcp__<server>__` prefix), no `$ref`/`$defs` (left unresolved by Claude Code and Copilot), object
 * input and output schemas (the MCP SDK rejects others), arrays with `items` (VS Code), schemas that compile under
 * draft-07 and 2020-12 validators, and the SDK's own `Tool` shape.
 */

import { readFile } from 'node:fs/promises';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from './catalog.js';
import { acceptedCounts, FAMILIES, familyProblems, type ListedTool } from './client-families.js';
import { CLIENT_NAME_LIMIT, CLIENT_PREFIX } from './names.js';
import { SCHEMA_PROFILES, type SchemaProfile } from './schema-profile.js';
import { listTools } from './server.js';
import { connect } from './test-support.js';
import { ToolCalls, type ToolCallsOptions } from './tool-calls.js';

/** Meta-schema checks, as VS Code and other clients run them: draft-07 and 2020-12. */
const META_VALIDATORS = [new Ajv({ strict: false, logger: false }), new Ajv2020({ strict: false, logger: false })];
const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'hostname', 'ipv4', 'ipv6']);

/** Every subschema (and keyword) of `schema`, with its path. */
function* walk(node: unknown, path = '#'): Generator<[string, Record<string, unknown>]> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const [index, entry] of node.entries()) yield* walk(entry, `${path}/${index}`);
    return;
  }
  yield [path, node as Record<string, unknown>];
  for (const [key, value] of Object.entries(node)) yield* walk(value, `${path}/${key}`);
}

/** The problems a major client would find in one tool; empty when every client accepts it. */
function clientProblems(tool: ReturnType<typeof listTools>[number]): string[] {
  const problems: string[] = [];
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) problems.push(`name ${tool.name} has characters clients reject`);
  if ((CLIENT_PREFIX + tool.name).length > CLIENT_NAME_LIMIT) problems.push(`name ${tool.name} too long with prefix`);
  if (!tool.description || tool.description.length > 1024) problems.push('description missing or over 1024');
  for (const [label, schema] of [
    ['inputSchema', tool.inputSchema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    if (label === 'outputSchema' && schema === undefined) continue;
    if (schema?.type !== 'object') problems.push(`${label} is not an object schema`);
    for (const [path, node] of walk(schema)) {
      for (const keyword of ['$ref', '$defs', 'definitions', '$schema', '$id']) {
        if (keyword in node && !path.endsWith('/properties')) problems.push(`${label}${path.slice(1)} has ${keyword}`);
      }
      if (node.type === 'array' && !path.endsWith('/properties') && !node.items) {
        problems.push(`${label}${path.slice(1)} is an array without items`);
      }
    }
    for (const [path, node] of walk(schema)) {
      if (typeof node.format === 'string' && !path.endsWith('/properties') && !STANDARD_FORMATS.has(node.format)) {
        problems.push(`${label}${path.slice(1)} has the non-standard format ${node.format}`);
      }
    }
    for (const validator of META_VALIDATORS) {
      if (!validator.validateSchema(schema as object)) {
        problems.push(`${label} is not a valid schema: ${validator.errorsText(validator.errors)}`);
      }
    }
  }
  if (!ToolSchema.safeParse(tool).success) problems.push('not an MCP SDK Tool');
  return problems;
}

describe('tools/list: schemas every client accepts', () => {
  it.each([
    ['the default server', {}],
    ['one tool per store operation', { storeToolsets: 'all' as const }],
  ])('%s', (_label, options) => {
    const tools = listTools(new ToolCalls(options));
    const problems = tools.flatMap((tool) => clientProblems(tool).map((problem) => `${tool.name}: ${problem}`));
    expect(problems).toEqual([]);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
  });

  it('every schema of the default server compiles (what a validating client does on first call)', () => {
    const validator = new Ajv2020({ strict: false, logger: false });
    for (const tool of listTools(new ToolCalls())) {
      expect(() => validator.compile(tool.inputSchema)).not.toThrow();
      if (tool.outputSchema) expect(() => validator.compile(tool.outputSchema as object)).not.toThrow();
    }
  });

  it('the checks catch what clients reject', () => {
    const bad = {
      name: 'store_a_tool_name_that_goes_on_and_on_past_what_fits',
      description: 'x',
      inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/A' }, b: { type: 'array' } }, $defs: { A: {} } },
      outputSchema: { type: 'array', items: { type: 'string', format: 'int32' } },
    } as unknown as ReturnType<typeof listTools>[number];
    expect(clientProblems(bad)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('too long with prefix'),
        expect.stringContaining('has $ref'),
        expect.stringContaining('has $defs'),
        expect.stringContaining('array without items'),
        'outputSchema is not an object schema',
        expect.stringContaining('non-standard format int32'),
      ]),
    );
  });

  it('the SDK client lists every tool (its output-schema validators compile)', async () => {
    const connected = await connect({ storeToolsets: 'all' });
    try {
      const { tools } = await connected.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(buildCatalog({ storeToolsets: 'all' }).map((tool) => tool.name));
    } finally {
      await connected.close();
    }
  });

  it('serves the directory and trust operation by operation, the store through search and call', () => {
    const names = buildCatalog().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['directory_search', 'directory_list_mcp_servers', 'trust_decide']));
    expect(names.filter((name) => name.startsWith('store_'))).toEqual([
      'store_search_operations',
      'store_call_operation',
    ]);
    expect(buildCatalog({ storeToolsets: ['products'] }).map((tool) => tool.name)).toContain('store_create_product');
    expect(() => buildCatalog({ storeToolsets: ['nope'] })).toThrow(/unknown store tool set nope/);
  });
});

const ACCEPTANCE_MODES: [string, ToolCallsOptions][] = [
  ['default', {}],
  ['`--store-toolsets all`', { storeToolsets: 'all' }],
];

/** The README's acceptance table, computed: per mode and profile, the tools each client family accepts. */
function acceptanceTable(): string {
  const lines = [
    `| Mode | \`--schema-profile\` | Tools | ${FAMILIES.join(' | ')} |`,
    `| --- | --- | --- | ${FAMILIES.map(() => '---').join(' | ')} |`,
  ];
  for (const [mode, options] of ACCEPTANCE_MODES) {
    for (const profile of SCHEMA_PROFILES) {
      const tools = listTools(new ToolCalls({ ...options, schemaProfile: profile }));
      const counts = acceptedCounts(tools);
      lines.push(
        `| ${mode} | ${profile} | ${tools.length} | ${FAMILIES.map((family) => counts[family]).join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

describe('schema acceptance per client family', () => {
  it('the README table is what the checker counts today', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const table = /<!-- acceptance -->\n([\s\S]*?)\n<!-- \/acceptance -->/.exec(readme)?.[1];
    expect(table, 'README.md: the acceptance table between <!-- acceptance --> markers is stale').toBe(
      acceptanceTable(),
    );
  });

  it('the default profile passes every family in the default mode; each profile passes its own family', () => {
    const all = (profile: SchemaProfile, options: ToolCallsOptions = {}) =>
      listTools(new ToolCalls({ ...options, schemaProfile: profile }));
    const tools = all('default');
    expect(acceptedCounts(tools)).toEqual(Object.fromEntries(FAMILIES.map((family) => [family, tools.length])));
    const every = all('default', { storeToolsets: 'all' });
    const totals = SCHEMA_PROFILES.map((profile) =>
      Object.values(acceptedCounts(all(profile, { storeToolsets: 'all' }))).reduce((sum, count) => sum + count, 0),
    );
    expect(Math.max(...totals)).toBe(totals[0]);
    expect(acceptedCounts(all('openai', { storeToolsets: 'all' }))['OpenAI strict']).toBe(every.length);
    expect(acceptedCounts(all('gemini', { storeToolsets: 'all' })).Gemini).toBe(every.length);
  });

  it('each family’s checker refuses what that family refuses', () => {
    const tool = (inputSchema: object) => ({ name: 't', description: 'd', inputSchema }) as ListedTool;
    const closed = tool({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false });
    expect(familyProblems('Gemini', closed)).toEqual(['#: additionalProperties']);
    expect(familyProblems('OpenAI strict', closed)).toEqual([]);
    const loose = tool({ type: 'object', properties: { a: { type: 'string', minLength: 1, default: 'x' } } });
    expect(familyProblems('OpenAI strict', loose)).toEqual(
      expect.arrayContaining([expect.stringContaining('minLength'), expect.stringContaining('default')]),
    );
    const map = tool({ type: 'object', properties: { m: { type: 'object' }, n: { type: ['string', 'null'] } } });
    expect(familyProblems('Gemini', map)).toEqual(
      expect.arrayContaining([expect.stringContaining('without properties'), expect.stringContaining('type [')]),
    );
    expect(familyProblems('OpenAI strict', map)).toEqual([expect.stringContaining('free-form object')]);
    expect(familyProblems('Inspector --strict', tool({ type: 'object', properties: { a: true } }))).toEqual([
      '#/properties/a: a bare true',
    ]);
    expect(familyProblems('MCP SDK', tool({ type: 'array' }))).toContain('inputSchema is not an object schema');
  });

  it('the server takes back what a profile changed: JSON text for an object, null for an absent argument', async () => {
    const calls = new ToolCalls({ schemaProfile: 'openai' });
    const search = await calls.call('store_search_operations', { query: 'products', safety: null, limit: null });
    expect(search.isError).toBeUndefined();
    const refused = await calls.call('store_call_operation', {
      operationId: 'getProduct',
      arguments: JSON.stringify({ id: 'not a number' }),
      fields: null,
    });
    expect(refused.content[0]?.text).toMatch(/^Not sent: .*id/);
  });
});
