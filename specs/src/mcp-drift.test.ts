import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkToolDrift, diffSchema, diffToolLists, driftFailed, renderToolDrift } from './mcp-drift.ts';
import { liveStyleList, mirrorHolding, pinnedStore, storeTools } from './mcp-drift-fixtures.ts';
import { MIRROR } from './test-support.ts';

const run = promisify(execFile);

describe('tool list drift', () => {
  it('a live-style tools/list that adds four tools and narrows one schema is reported with the right classification', () => {
    const changes = diffToolLists(pinnedStore.list.tools, liveStyleList());
    expect(changes).toEqual([
      {
        breaking: true,
        tool: 'list_products',
        where: 'arguments.limit',
        detail: 'maximum changed: 100 → 50',
      },
      { breaking: false, tool: 'list_coupons', where: 'tool', detail: 'tool added' },
      { breaking: false, tool: 'get_coupon', where: 'tool', detail: 'tool added' },
      { breaking: false, tool: 'list_shipping_methods', where: 'tool', detail: 'tool added' },
      { breaking: false, tool: 'get_checkout_settings', where: 'tool', detail: 'tool added' },
    ]);
  });

  it('finds nothing between the pin and itself', () => {
    expect(diffToolLists(pinnedStore.list.tools, storeTools())).toEqual([]);
  });

  it('classifies arguments named like Object.prototype members as arguments like any other', () => {
    // Parsed from JSON, as tool lists are, so `__proto__` is an own key.
    const schema = (properties: string, required = '[]') =>
      JSON.parse(
        `{"type":"object","properties":{${properties}},"required":${required},"additionalProperties":false}`,
      ) as Record<string, unknown>;
    const id = '"id":{"type":"integer"}';
    const named = (name: string) => `"${name}":{"type":"string"}`;
    expect(diffSchema('t', schema(id), schema(`${id},${named('constructor')}`))).toEqual([
      { breaking: false, tool: 't', where: 'arguments.constructor', detail: 'new optional argument' },
    ]);
    expect(diffSchema('t', schema(`${id},${named('toString')}`), schema(id))).toEqual([
      { breaking: true, tool: 't', where: 'arguments.toString', detail: 'argument removed (now refused)' },
    ]);
    expect(diffSchema('t', schema(id), schema(`${id},${named('__proto__')}`, '["__proto__"]'))).toEqual([
      { breaking: true, tool: 't', where: 'arguments.__proto__', detail: 'new required argument' },
    ]);
    expect(diffSchema('t', schema(`${id},${named('__proto__')}`), schema(id))).toEqual([
      { breaking: true, tool: 't', where: 'arguments.__proto__', detail: 'argument removed (now refused)' },
    ]);
    expect(
      diffSchema('t', schema(`${id},${named('hasOwnProperty')}`), schema(`${id},${named('hasOwnProperty')}`)),
    ).toEqual([]);
  });

  it('calls a removed tool breaking', () => {
    const tools = storeTools().filter((t) => t.name !== 'delete_page');
    expect(diffToolLists(pinnedStore.list.tools, tools)).toEqual([
      { breaking: true, tool: 'delete_page', where: 'tool', detail: 'tool removed' },
    ]);
  });

  const base = {
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1 },
      status: { type: 'string', enum: ['paid', 'pending'] },
      note: { type: 'string', maxLength: 100 },
      price: { type: 'number' },
    },
    required: ['id'],
    additionalProperties: false,
  };
  type Edit = (schema: typeof base & Record<string, unknown>) => void;
  const props = (schema: Record<string, unknown>) => schema.properties as Record<string, Record<string, unknown>>;

  it.each<[string, Edit, boolean, string, string]>([
    [
      'new required argument',
      (s) => {
        props(s).store_id = { type: 'integer' };
        s.required = ['id', 'store_id'];
      },
      true,
      'arguments.store_id',
      'new required argument',
    ],
    [
      'new optional argument',
      (s) => {
        props(s).store_id = { type: 'integer' };
      },
      false,
      'arguments.store_id',
      'new optional argument',
    ],
    [
      'optional argument made required',
      (s) => {
        s.required = ['id', 'note'];
      },
      true,
      'arguments.note',
      'now required',
    ],
    [
      'requirement dropped',
      (s) => {
        s.required = [];
      },
      false,
      'arguments.id',
      'no longer required',
    ],
    [
      'argument removed from a closed schema',
      (s) => {
        delete props(s).note;
      },
      true,
      'arguments.note',
      'argument removed (now refused)',
    ],
    [
      'enum value removed',
      (s) => {
        props(s).status!.enum = ['paid'];
      },
      true,
      'arguments.status',
      'values no longer accepted: "pending"',
    ],
    [
      'enum value added',
      (s) => {
        props(s).status!.enum = ['paid', 'pending', 'refunded'];
      },
      false,
      'arguments.status',
      'values now also accepted: "refunded"',
    ],
    [
      'number narrowed to integer',
      (s) => {
        props(s).price!.type = 'integer';
      },
      true,
      'arguments.price',
      'type narrowed from number to integer',
    ],
    [
      'integer widened to number',
      (s) => {
        props(s).id!.type = 'number';
      },
      false,
      'arguments.id',
      'type widened from integer to number',
    ],
    [
      'minimum raised',
      (s) => {
        props(s).id!.minimum = 10;
      },
      true,
      'arguments.id',
      'minimum changed: 1 → 10',
    ],
    [
      'maximum length raised',
      (s) => {
        props(s).note!.maxLength = 500;
      },
      false,
      'arguments.note',
      'maxLength changed: 100 → 500',
    ],
    [
      'format added',
      (s) => {
        props(s).note!.format = 'uri';
      },
      true,
      'arguments.note',
      'format - → uri',
    ],
    [
      'schema opened to extra arguments',
      (s) => {
        s.additionalProperties = true;
      },
      false,
      'arguments',
      'additional properties refused → accepted',
    ],
    [
      'unclassified keyword',
      (s) => {
        props(s).note!.oneOf = [{ type: 'string' }];
      },
      true,
      'arguments.note',
      'oneOf changed (not classified, so treated as breaking)',
    ],
  ])('%s', (_, edit, breaking, where, detail) => {
    const after = structuredClone(base) as typeof base & Record<string, unknown>;
    edit(after);
    expect(diffSchema('update_order', base, after)).toEqual([{ breaking, tool: 'update_order', where, detail }]);
  });

  it('checkToolDrift compares the pin with the live server, else the mirror, else skips', async () => {
    const drift = await checkToolDrift('store', { mirror: await mirrorHolding(liveStyleList()), env: {} });
    expect(drift.changes.filter((c) => c.breaking)).toHaveLength(1);
    expect(driftFailed([drift])).toBe(true);
    expect(renderToolDrift([drift])).toContain('| store | BREAKING drift | 1 | 4 |');

    const added = await checkToolDrift('store', {
      mirror: await mirrorHolding([...storeTools(), liveStyleList()[20]!]),
      env: {},
    });
    expect(added.changes).toEqual([{ breaking: false, tool: 'list_coupons', where: 'tool', detail: 'tool added' }]);
    expect(driftFailed([added])).toBe(false);

    const skipped = await checkToolDrift('directory', { env: {} });
    expect(skipped).toMatchObject({
      skipped: 'no live server configured (set DIRECTORY_MCP_URL) and no SPECS_MIRROR',
      changes: [],
    });
    expect(driftFailed([skipped])).toBe(false);

    // A configured live server is asked even when a mirror is given.
    const unreachable = await checkToolDrift('directory', {
      mirror: MIRROR,
      env: { DIRECTORY_MCP_URL: 'http://127.0.0.1:9/mcp' },
      timeoutMs: 2_000,
    });
    expect(unreachable.error).toMatch(/^directory: cannot reach http:\/\/127\.0\.0\.1:9\/mcp/);
    expect(driftFailed([unreachable])).toBe(true);
  });

  it('pnpm mcp:diff exits 1 on breaking drift and writes the report; 0 when the lists match', async () => {
    const script = join(import.meta.dirname, 'mcp-drift.ts');
    const mcpDiff = async (mirror: string) => {
      const reports = await mkdtemp(join(tmpdir(), 'agent-apis-mcp-drift-reports-'));
      const noLiveServer = {
        ...{ STORE_LOGIN: '', STORE_AUTH_TOKEN: '', STORE_MCP_LOGIN_KEY: '', STORE_MCP_AUTH_TOKEN: '' },
        DIRECTORY_MCP_URL: '',
      };
      const env = { ...process.env, ...noLiveServer, SPECS_MIRROR: mirror, SPECS_REPORTS_DIR: reports };
      const result = await run(process.execPath, [script, 'store'], { env }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      return { ...result, markdown: await readFile(join(reports, 'mcp-drift.md'), 'utf8') };
    };
    const drifted = await mcpDiff(await mirrorHolding(liveStyleList()));
    expect(drifted.code).toBe(1);
    expect(drifted.markdown).toContain('| breaking | list_products | arguments.limit | maximum changed: 100 → 50 |');
    expect(drifted.stdout).toContain('| store | BREAKING drift | 1 | 4 |');
    const same = await mcpDiff(MIRROR);
    expect(same.code).toBe(0);
    expect(same.markdown).toContain('| store | matches the pin | 0 | 0 |');
  });
});
