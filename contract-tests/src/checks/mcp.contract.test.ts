/**
 * Contract checks of the two agent tool servers, driven through `@agent-apis/mcp`.
 *
 * Mock mode: a local server built from the pinned tools/list result (`mcp-server.ts`). Every tool is called with
 * only its required arguments and with all of them (the server echoes what arrived, which must be what was sent),
 * with arguments that break its input schema through the typed client (stopped with `RequestValidationError`,
 * nothing sent) and around it (rejected by the server as a tool error); the server's tools/list must match the pin.
 *
 * Live mode (`CONTRACT_TARGET=live`, see `suite/targets.ts`): the live tools/list is diffed against the pin (breaking
 * drift fails). Tools are called by their safety class (`specs/<service>/mcp-tools.contract.json`,
 * `tool-classes.ts`), paced (one call a second next to the REST store suite): read tools (also read-only on the server) the same way as in mock
 * mode, with record ids taken from a list tool's answer (skipped when the account holds no record); write tools
 * only with CONTRACT_ALLOW_WRITES naming the service, as create → read back → update → delete of a record carrying
 * the run's marker (with its secret), found in the create answer by that marker and read back before every
 * change; dangerous tools never.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RateLimiter } from '@agent-apis/core/call';
import {
  DirectoryTools,
  RequestValidationError,
  StoreTools,
  ToolError,
  type ToolResult,
  type ToolServerClient,
  toolMethodName,
} from '@agent-apis/mcp';
import { diffToolLists } from '@agent-apis/specs/mcp-drift';
import { type McpTool, readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { sampleValue } from '@agent-apis/test-servers/sample-value';
import { type LocalToolServer, startToolServer } from '@agent-apis/test-servers/tool-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRunMarker, isOwnMarker } from '../engine/lifecycles.ts';
import { liveToolServerTargets, MCP_CANARY, mockToolServerTargets, type ToolServerTarget } from '../engine/targets.ts';
import { CoverageRecorder, coverageDir } from '../evidence/coverage.ts';
import { envNumber, RANGES, writeServices } from '../settings.ts';
import { findRecord, firstId, readToolClasses, toolAnswer } from './tool-classes.ts';

type Args = Record<string, unknown>;

const mode = inject('contractMode');
const targets = mode === 'live' ? liveToolServerTargets(process.env) : mockToolServerTargets();
/** The marker of this run's records (`suite/lifecycles.ts`): its secret makes a record this run's own. */
const runMarker = createRunMarker();

/** Arguments that satisfy the tool's schema: its required ones only, or every one it declares. */
function validArguments(tool: McpTool, coverage: 'required' | 'all'): Args {
  return sampleValue({} as OpenApiDocument, tool.inputSchema, coverage) as Args;
}

/** The first way to break the tool's input schema, and the field a client must name for it. */
function breakArguments(tool: McpTool): { args: Args; field: string; what: string } {
  const valid = validArguments(tool, 'required');
  const properties = Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Args>);
  const broken = (name: string, value: unknown, what: string) => ({
    args: { ...valid, [name]: value },
    field: `arguments.${name}`,
    what: `arguments.${name} ${what}`,
  });
  for (const [name, schema] of properties) {
    if (Array.isArray(schema.enum)) return broken(name, 'not-in-the-enum', 'outside its enum');
    if (typeof schema.maximum === 'number') return broken(name, schema.maximum + 1, 'above its maximum');
  }
  for (const [name, schema] of properties) {
    if (typeof schema.minimum === 'number') return broken(name, schema.minimum - 1, 'below its minimum');
    if (typeof schema.minLength === 'number' && schema.minLength > 0) return broken(name, '', 'shorter than allowed');
  }
  const [required] = (tool.inputSchema.required as string[] | undefined) ?? [];
  if (required) {
    const { [required]: _omitted, ...rest } = valid;
    return { args: rest, field: `arguments.${required}`, what: `required arguments.${required} missing` };
  }
  return broken('unexpected_argument', true, 'not declared by the schema');
}

/** Calls a tool through the client method generated for it. */
function callTyped(client: ToolServerClient, tool: string, args: Args): Promise<ToolResult> {
  const method = (client as unknown as Record<string, (args: Args) => Promise<ToolResult>>)[toolMethodName(tool)];
  if (typeof method !== 'function') throw new Error(`the client has no method for tool ${tool}`);
  return method.call(client, args);
}

function credentialHeaders(target: ToolServerTarget): Record<string, string> {
  const { loginKey, authToken } = target.credentials;
  return loginKey && authToken ? { 'X-LOGIN-KEY': loginKey, 'X-AUTH-TOKEN': authToken } : {};
}

/** Sends a tools/call with the official SDK client directly, bypassing the typed client's argument check. */
async function callAroundTheClient(url: string, headers: Record<string, string>, tool: string, args: Args) {
  const client = new Client({ name: 'agent-apis-contract-tests', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    return await client.callTool({ name: tool, arguments: args });
  } finally {
    await client.close();
  }
}

for (const service of ['store', 'directory'] as const) {
  const target = targets[service];
  const { list } = await readSyncedToolList(service);
  const pinned = list.tools;
  const classes = await readToolClasses(service);
  const writesAllowed = writeServices().has(service);
  // Live: tool calls paced, since the tool server calls the store on our behalf: one a second when the REST suite
  // spends the store's budget in the same run (its limiter leaves that room), else ten a second.
  // CONTRACT_TOOL_CALLS_PER_SECOND overrides it (the stand-in tests, whose limits are their own).
  const restStoreRuns = Boolean(
    process.env.STORE_ACCESS_TOKEN || (process.env.STORE_LOGIN && process.env.STORE_AUTH_TOKEN),
  );
  const callsPerSecond = envNumber(
    process.env,
    'CONTRACT_TOOL_CALLS_PER_SECOND',
    RANGES.CONTRACT_TOOL_CALLS_PER_SECOND,
    restStoreRuns ? 1 : 10,
  );
  const pace =
    mode === 'live'
      ? new RateLimiter({ windows: [{ limit: 1, windowMs: Math.ceil(1_000 / callsPerSecond) }] })
      : undefined;
  const recorder = new CoverageRecorder(
    `${service}-mcp`,
    mode,
    pinned.map((tool) => tool.name),
    {},
    'tools',
  );
  afterAll(() => recorder.write(coverageDir(mode)));

  if (target.skipReason) {
    recorder.skipService(target.skipReason);
    await recorder.write(coverageDir(mode));
    // Skipped, never counted as passed: the reason is in the title and in the coverage report.
    it.skip(`${service} tool server: skipped: ${target.skipReason}`, () => expect.unreachable());
    continue;
  }

  /** Sent requests, so a test can tell that a refused call sent nothing. */
  let sent = 0;
  const countingFetch: typeof fetch = (input, init) => {
    sent++;
    return fetch(input, init);
  };
  let url = target.url ?? '';
  const createClient = (): ToolServerClient =>
    service === 'store'
      ? new StoreTools({ url, ...target.credentials, fetch: countingFetch })
      : new DirectoryTools({ url, fetch: countingFetch });

  // Live: the tools the server offers now decide which pinned tools can be called.
  const listLive = async () => {
    const client = createClient();
    try {
      return await client.listTools();
    } catch (error) {
      return error as Error;
    } finally {
      await client.close();
    }
  };
  const live = mode === 'live' ? await listLive() : undefined;
  const liveByName = new Map((Array.isArray(live) ? live : []).map((tool) => [tool.name, tool]));
  const skipReasonFor = (tool: McpTool): string | undefined => {
    if (!live) return undefined;
    if (live instanceof Error) return `not called: the handshake or tools/list failed (${live.message})`;
    if (!liveByName.has(tool.name)) return 'the live server no longer offers this tool';
    const safety = classes[tool.name]?.safety ?? 'dangerous';
    if (safety === 'dangerous') return 'dangerous tool: never called live';
    if (safety === 'write') {
      return writesAllowed
        ? 'write tool: called live only in the create → delete lifecycle of a record of this run'
        : `write tool: called live only with CONTRACT_ALLOW_WRITES=${service} (sandbox only)`;
    }
    return liveByName.get(tool.name)?.annotations?.readOnlyHint === true
      ? undefined
      : 'the live server does not mark this read tool read-only: not called';
  };

  /** Live: one paced call through the typed client. */
  const callLive = async (tool: string, args: Args) => {
    await pace?.acquire();
    const client = createClient();
    try {
      return await callTyped(client, tool, args);
    } finally {
      await client.close();
    }
  };
  // Live: record ids for read tools, from the answer of the list tool their class names.
  const idAnswers = new Map<string, Promise<unknown>>();
  const liveIds = async (tool: McpTool): Promise<Args | string> => {
    const ids: Args = {};
    for (const [argument, from] of Object.entries(classes[tool.name]?.from ?? {})) {
      let answer = idAnswers.get(from);
      if (!answer) {
        answer = callLive(from, {}).then(toolAnswer);
        idAnswers.set(from, answer);
      }
      const id = firstId(await answer.catch(() => undefined));
      if (id === undefined) return `no record for ${argument} in the live account (${from} listed none)`;
      ids[argument] = id;
    }
    return ids;
  };

  describe(`${service} tool server (${mode})`, () => {
    let local: LocalToolServer | undefined;
    beforeAll(async () => {
      if (mode === 'mock') {
        local = await startToolServer({ tools: pinned, credentials: credentialHeaders(target) });
        url = local.url;
      }
    });
    afterAll(() => local?.close());

    it(mode === 'mock' ? 'tools/list matches the pin' : 'tools/list shows no breaking drift from the pin', async () => {
      const done = recorder.begin('tools/list', mode === 'mock' ? 'matches-pin' : 'drift');
      if (live instanceof Error) {
        recorder.fail('tools/list', 'drift', live.message);
        throw live;
      }
      const client = createClient();
      try {
        const changes = diffToolLists(pinned, live ?? (await client.listTools()));
        const lines = (only: typeof changes) => only.map((c) => `${c.tool} ${c.where}: ${c.detail}`);
        const breaking = changes.filter((change) => change.breaking);
        if (breaking.length > 0) recorder.fail('tools/list', 'drift', `breaking drift: ${lines(breaking).join('; ')}`);
        expect(lines(mode === 'mock' ? changes : breaking)).toEqual([]);
        done(changes.length > 0 ? `${changes.length} change(s), none breaking: ${lines(changes).join('; ')}` : '');
      } finally {
        await client.close();
      }
    });

    for (const tool of pinned) {
      describe(tool.name, () => {
        const skip = skipReasonFor(tool);
        for (const coverage of ['required', 'all'] as const) {
          const check = `call:${coverage}`;
          const title = `${coverage} arguments → a result`;
          if (skip) {
            recorder.skip(tool.name, check, skip);
            it.skip(`${title} — skipped: ${skip}`, () => expect.unreachable());
            continue;
          }
          it(`${title}${mode === 'live' && classes[tool.name]?.from ? ' (skipped when the live account holds no record)' : ''}`, async (context) => {
            let args = validArguments(tool, coverage);
            if (mode === 'live') {
              const ids = await liveIds(tool);
              if (typeof ids === 'string') {
                recorder.skip(tool.name, check, ids);
                context.skip(ids);
              }
              args = { ...args, ...(ids as Args) };
              await pace?.acquire();
            }
            const done = recorder.begin(tool.name, check);
            const client = createClient();
            try {
              const result = await callTyped(client, tool.name, args);
              if (mode === 'mock') {
                const { records: _records, record: _record, ...echo } = result.structuredContent ?? {};
                expect(echo).toEqual({ tool: tool.name, arguments: args });
              } else expect(Array.isArray(result.content)).toBe(true);
              done();
            } catch (error) {
              // Live: a tool error to arguments the suite made up (a search text, an optional filter) rests on a
              // guess: inconclusive, never verified. To none (no argument, or only ids the server listed) the tool
              // broke its promise: failed.
              if (mode === 'live' && error instanceof ToolError && error.code === undefined) {
                const madeUp = Object.keys(args).filter((name) => !(name in (classes[tool.name]?.from ?? {})));
                if (madeUp.length > 0) {
                  done(
                    `tool error to arguments the suite made up (${madeUp.join(', ')}): ${error.message}`,
                    'inconclusive',
                  );
                  return;
                }
                recorder.fail(tool.name, check, `tool error to a call with no made-up argument: ${error.message}`);
                throw error;
              }
              recorder.fail(tool.name, check, (error as Error).message);
              throw error;
            } finally {
              await client.close();
            }
          });
        }

        const broken = breakArguments(tool);
        it(`invalid arguments (${broken.what}) are stopped by the client, nothing sent`, async () => {
          const done = recorder.begin(tool.name, 'invalid:client');
          const client = createClient();
          const before = sent;
          const error = await callTyped(client, tool.name, broken.args).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(RequestValidationError);
          expect((error as RequestValidationError).field).toBe(broken.field);
          expect(sent - before, 'requests sent').toBe(0);
          done(`client: ${(error as RequestValidationError).field} ${(error as RequestValidationError).reason}`);
        });

        if (skip) {
          recorder.skip(tool.name, 'invalid:server', skip);
          it.skip(`invalid arguments sent around the client — skipped: ${skip}`, () => expect.unreachable());
          return;
        }
        it(`invalid arguments (${broken.what}) sent around the client are rejected by the server`, async () => {
          const done = recorder.begin(tool.name, 'invalid:server');
          await pace?.acquire();
          const outcome = await callAroundTheClient(url, credentialHeaders(target), tool.name, broken.args).catch(
            (e: unknown) => e,
          );
          if (outcome instanceof McpError) {
            done(`server: JSON-RPC error ${outcome.code}`);
            return;
          }
          const result = outcome as ToolResult;
          // One leniency rule on every surface (REST's negative check too): a server accepting input its schema
          // forbids is a warning, red only under CONTRACT_STRICT=1 (judged by `report/states.ts`).
          if (result.isError !== true) {
            done(`the server accepted ${broken.what}`, 'warning');
            return;
          }
          const [first] = result.content;
          const text = first?.type === 'text' ? first.text : '';
          // The local server says why (Ajv); a live server's wording is its own.
          if (mode === 'mock') expect(text).toMatch(new RegExp(`^Invalid arguments for ${tool.name}: arguments`));
          done(`server: tool error (${broken.what})`);
        });
      });
    }

    if (mode === 'live' && writesAllowed && !(live instanceof Error)) {
      for (const [name, toolClass] of Object.entries(classes)) {
        const creates = toolClass.creates;
        if (!creates || !liveByName.has(name)) continue;
        const steps = `${name} → read back → ${creates.update ? `${creates.update} → ` : ''}${creates.delete}`;
        it(`${steps}: only the record carrying this run's marker, read back and checked before every change`, async () => {
          const done = recorder.begin(name, 'lifecycle');
          const carries = (record: Args, updated: boolean) =>
            updated ? isOwnMarker(record[creates.marker], runMarker) : record[creates.marker] === runMarker.text;
          const hasId = (record: Args) => typeof record.id === 'number' || typeof record.id === 'string';
          /** The record `id` as the server shows it now, if it still carries this run's marker. */
          const readOwn = async (id: unknown, updated: boolean) => {
            const answer = creates.get
              ? await callLive(creates.get, { id })
              : await callLive(creates.list, creates.listArguments ?? {});
            return findRecord(toolAnswer(answer), (r) => String(r.id) === String(id) && carries(r, updated));
          };
          const answer = toolAnswer(await callLive(name, { ...creates.arguments, [creates.marker]: runMarker.text }));
          // The new record is the one carrying this run's marker, wherever the answer puts it, never merely the
          // first id in it. If the answer shows none, look for it in the list, so it is not left behind.
          const created = findRecord(answer, (r) => hasId(r) && carries(r, false));
          const id =
            created?.id ??
            findRecord(
              toolAnswer(await callLive(creates.list, creates.listArguments ?? {})),
              (r) => hasId(r) && carries(r, false),
            )?.id;
          let updated = false;
          try {
            expect(created, `${name}'s answer shows a record carrying this run's marker`).toBeDefined();
            expect(await readOwn(id, false), `record ${id} read back carries this run's marker`).toBeDefined();
            if (creates.update) {
              await callLive(creates.update, { id, [creates.marker]: runMarker.updated });
              updated = true;
              const after = await readOwn(id, true);
              expect(after?.[creates.marker], `${creates.update} applied`).toBe(runMarker.updated);
            }
          } finally {
            // Deleted only after a fresh read shows it is still this run's record.
            if (id !== undefined && (await readOwn(id, updated))) await callLive(creates.delete, { id });
          }
          done(`created, read back, ${creates.update ? 'updated, ' : ''}deleted record ${id}`);
        });
      }
    }

    it('no credential appears in the coverage notes', async () => {
      await recorder.write(coverageDir(mode));
      const written = await readFile(join(coverageDir(mode), `coverage-${service}-mcp.json`), 'utf8');
      for (const secret of [...Object.values(target.credentials), ...Object.values(MCP_CANARY)]) {
        if (secret) expect(written).not.toContain(secret);
      }
    });
  });
}
