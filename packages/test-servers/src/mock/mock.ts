/**
 * `pnpm mock [--prism] [service…]`: local mocks of the APIs on documented loopback ports, under the same base
 * paths as the real services, so a program points its base URLs at them and nothing else changes.
 *
 * By default the REST APIs are the contract suite's stand-ins (`stand-ins/`), which behave like small real
 * services: realistic records (products with prices and variants, orders, reviews; directory servers, plugins and
 * skills; trust decisions that allow, deny, sandbox or escalate, valid from the time of the call), writes kept in
 * memory until the mock stops, the store's 20/s and 800/min budget with its `Jumpseller-*RateLimit-*` headers,
 * trust's one call at a time per key. A front server on each documented port keeps the base path (a request
 * outside it gets the service's 404) and answers `Prefer: code=<status>` with that status and the service's error
 * body. `--prism` serves Prism on each final spec instead (answers from the spec's examples, every request checked
 * against the spec, `Prefer: code=`, `example=` and `dynamic=true`); Prism stays the contract suite's mock.
 * The agent tool servers are the MCP SDK server of `../tool-server.ts` answering every tool of the pinned tool
 * lists with schema-checked placeholder results. It prints what it serves, each base URL and the environment lines
 * to paste, then runs until Ctrl-C.
 *
 * Services: `directory`, `store`, `trust`, `mcp` (both tool servers); none named means all. Ports start at 4010
 * (`MOCK_PORT` moves the first; `MOCK_PORT=0` takes free ports, as the tests do).
 */

import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL_ENV_VAR as DIRECTORY_BASE_URL_ENV_VAR } from '@agent-apis/directory';
import { DIRECTORY_MCP_URL_ENV_VAR, STORE_MCP_ENV_VARS } from '@agent-apis/mcp';
import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { CREDENTIAL_ENV_VARS, BASE_URL_ENV_VAR as STORE_BASE_URL_ENV_VAR } from '@agent-apis/store';
import { readFinalSpec } from '@agent-apis/test-utils/final-specs';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';
import {
  API_KEY_ENV_VAR as TRUST_API_KEY_ENV_VAR,
  BASE_URL_ENV_VAR as TRUST_BASE_URL_ENV_VAR,
} from '@agent-apis/trust';
import { startPrism } from '../prism.ts';
import { startDirectoryStandIn } from '../stand-ins/directory.ts';
import type { StandIn } from '../stand-ins/server.ts';
import { startStoreStandIn } from '../stand-ins/store.ts';
import { startTrustStandIn } from '../stand-ins/trust.ts';
import { startToolServer } from '../tool-server.ts';

export const MOCK_SERVICES = ['directory', 'store', 'trust', 'mcp'] as const;
export type MockService = (typeof MOCK_SERVICES)[number];

/** What answers the REST APIs: the contract suite's stand-ins (the default) or Prism on each final spec. */
export type MockEngine = 'stand-ins' | 'prism';
export const MOCK_ENGINES: Record<MockEngine, string> = {
  'stand-ins':
    "the contract suite's stand-ins: realistic records, writes kept in memory (`pnpm mock --prism` serves Prism)",
  prism: 'Prism on each final spec: answers from its examples, requests checked against it',
};

/**
 * Records the store stand-in serves under `pnpm mock` on top of its fixture (product 42 with variants and reviews,
 * a second paid order), kept apart so that the contract suite's harness tests keep their fixture as it is.
 */
export const STORE_MOCK_RECORDS = join(import.meta.dirname, '..', 'stand-ins', 'store-mock-records.json');

/** The port of each server, counted from the first port (4010 by default). */
const PORT_OFFSETS = { directory: 0, store: 1, trust: 2, storeTools: 3, directoryTools: 4 } as const;
export const DEFAULT_FIRST_PORT = 4010;

/** The path each API lives under on its real host, which the mock keeps. */
const BASE_PATHS = { directory: '', store: '/v1', trust: '/api' } as const;

/**
 * Credentials the mocks accept: Prism wants credentials present (any value); the store tool server wants the
 * store's pair, which the REST and the tool clients share.
 */
export const MOCK_CREDENTIALS = {
  storeLogin: 'mock-login',
  storeAuthToken: 'mock-auth-token',
  trustApiKey: 'sk_ent0_mock',
} as const;

/**
 * The store's hooks token under `pnpm mock`, and a delivery signed with it the way the platform signs one (header
 * `Jumpseller-Hmac-Sha256`: the base64 HMAC-SHA256 of the raw body, keyed with the token), so the README's webhook
 * receiver can be tried with `STORE_HOOKS_TOKEN` set and the printed `curl`.
 */
export const MOCK_HOOKS = {
  tokenEnv: 'STORE_HOOKS_TOKEN',
  token: 'mock-hooks-token',
  signatureHeader: 'Jumpseller-Hmac-Sha256',
  event: 'order_paid',
  body: JSON.stringify({ order: { id: 1001, status: 'Paid', total: 42.5, currency: 'EUR' } }),
} as const;

/** The base64 HMAC-SHA256 of `body` keyed with `token`: the signature header of a store delivery. */
export function signDelivery(body: string, token: string): string {
  return createHmac('sha256', token).update(body).digest('base64');
}

/** The lines `pnpm mock` prints about webhooks: the token to export and a signed sample delivery to post. */
export function describeWebhookSample(receiverUrl = 'http://localhost:3000/'): string {
  const signature = signDelivery(MOCK_HOOKS.body, MOCK_HOOKS.token);
  return [
    `Webhooks: deliveries are signed with the hooks token ${MOCK_HOOKS.tokenEnv} (the README's receiver reads it).`,
    `A sample ${MOCK_HOOKS.event} delivery, signed with it, to post at a receiver on port 3000:`,
    `  curl -X POST '${receiverUrl}?event=${MOCK_HOOKS.event}' -H 'content-type: application/json' \\`,
    `    -H '${MOCK_HOOKS.signatureHeader}: ${signature}' \\`,
    `    --data '${MOCK_HOOKS.body}'`,
    '',
  ].join('\n');
}

export interface RunningMock {
  service: string;
  url: string;
  env: Record<string, string>;
}

export interface Mocks {
  engine: MockEngine;
  running: RunningMock[];
  stop(): Promise<void>;
}

type RestService = keyof typeof BASE_PATHS;

/** The service's own error body for `status`, as a front server answers outside the base path or for `Prefer`. */
function errorBody(service: RestService, status: number, message: string): unknown {
  switch (service) {
    case 'store':
      return { message };
    case 'trust':
      return { error: { code: status === 404 ? 'not_found' : `http_${status}`, message, request_id: 'req_mock' } };
    default:
      return { error: message };
  }
}

/** The status a `Prefer: code=<status>` header asks for (4xx or 5xx), if any. */
function preferredStatus(request: IncomingMessage): number | undefined {
  const prefer = request.headers.prefer;
  const code = /(?:^|[\s,;])code=(\d{3})\b/.exec(Array.isArray(prefer) ? prefer.join(',') : (prefer ?? ''))?.[1];
  const status = Number(code);
  return status >= 400 && status <= 599 ? status : undefined;
}

/**
 * The server on a mock's documented port in front of a stand-in: requests under `basePath` go to the stand-in
 * (with `basePath` removed where the stand-in serves without it), anything else gets the service's 404, and
 * `Prefer: code=<status>` gets that status at once. Everything else passes through untouched, headers included.
 */
async function startFront(
  service: RestService,
  standIn: StandIn,
  port: number,
  keepBasePath: boolean,
): Promise<{ url: string; close(): Promise<void> }> {
  const basePath = BASE_PATHS[service];
  const target = new URL(standIn.url);
  const answer = (response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(errorBody(service, status, message)));
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://mock');
    const under = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
    if (!under) return answer(response, 404, `Not Found: this API lives under ${basePath}`);
    const status = preferredStatus(request);
    if (status !== undefined) {
      request.resume();
      return answer(response, status, `Prefer: code=${status}`, status === 429 ? { 'retry-after': '1' } : {});
    }
    const { prefer: _mockOnly, ...headers } = request.headers;
    const path = keepBasePath ? url.pathname : url.pathname.slice(basePath.length);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: `${path}${url.search}`, headers },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (response.headersSent) response.destroy(error);
      else answer(response, 502, 'the stand-in did not answer');
    });
    request.pipe(upstream);
  });
  const { origin, close } = await listenOnLoopback(server, port);
  return { url: origin, close };
}

/** The final spec with every path moved under `basePath`, written where Prism can read it. */
async function specUnder(service: keyof typeof BASE_PATHS, basePath: string, dir: string): Promise<string> {
  const document = await readFinalSpec<{ paths: Record<string, unknown> }>(service);
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [`${basePath}${path}`, item]),
  );
  const file = join(dir, `${service}.openapi.json`);
  await writeFile(file, JSON.stringify(document));
  return file;
}

/** Starts the mocks of `services` (all when empty) served by `engine`; ports from `firstPort` (0: free ports). */
export async function startMocks(
  services: readonly MockService[],
  firstPort = DEFAULT_FIRST_PORT,
  engine: MockEngine = 'stand-ins',
): Promise<Mocks> {
  const wanted = services.length > 0 ? services : MOCK_SERVICES;
  const port = (offset: number) => (firstPort === 0 ? 0 : firstPort + offset);
  const servers: { close(): Promise<void> }[] = [];
  const running: RunningMock[] = [];
  // A folder of this run's own (mkdtemp: a fresh name, created 0700), never a fixed path another user could plant.
  const dir = await mkdtemp(join(tmpdir(), 'agent-apis-mock-'));
  const stop = async () => {
    await Promise.all(servers.map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  };
  const prism = async (service: RestService) => {
    const server = await startPrism({
      name: `mock-${service}`,
      spec: await specUnder(service, BASE_PATHS[service], dir),
      logDir: dir,
      port: port(PORT_OFFSETS[service]),
      readyTimeoutMs: 90_000,
    });
    servers.push({ close: () => server.stop() });
    return `${server.url}${BASE_PATHS[service]}`;
  };
  const standIn = async (service: RestService) => {
    const started =
      service === 'directory'
        ? await startDirectoryStandIn({ mode: 'lenient', applyFilters: true })
        : service === 'store'
          ? await startStoreStandIn({
              login: MOCK_CREDENTIALS.storeLogin,
              authToken: MOCK_CREDENTIALS.storeAuthToken,
              mode: 'lenient',
              records: JSON.parse(await readFile(STORE_MOCK_RECORDS, 'utf8')).records,
            })
          : await startTrustStandIn({ apiKey: MOCK_CREDENTIALS.trustApiKey });
    servers.push(started);
    // The store's stand-in answers under /v1 itself; trust's serves its paths from the root.
    const front = await startFront(service, started, port(PORT_OFFSETS[service]), service !== 'trust');
    servers.push(front);
    return `${front.url}${BASE_PATHS[service]}`;
  };
  const rest = (service: RestService) => (engine === 'prism' ? prism(service) : standIn(service));
  try {
    // Settled, not raced: a server still starting when another failed (a taken port) is stopped with the rest.
    const started = await Promise.allSettled(
      wanted.map(async (service) => {
        switch (service) {
          case 'directory': {
            const url = await rest('directory');
            running.push({ service, url, env: { [DIRECTORY_BASE_URL_ENV_VAR]: url } });
            break;
          }
          case 'store': {
            const url = await rest('store');
            const env = {
              [STORE_BASE_URL_ENV_VAR]: url,
              [CREDENTIAL_ENV_VARS.login]: MOCK_CREDENTIALS.storeLogin,
              [CREDENTIAL_ENV_VARS.authToken]: MOCK_CREDENTIALS.storeAuthToken,
              [MOCK_HOOKS.tokenEnv]: MOCK_HOOKS.token,
            };
            running.push({ service, url, env });
            break;
          }
          case 'trust': {
            const url = await rest('trust');
            running.push({
              service,
              url,
              env: { [TRUST_BASE_URL_ENV_VAR]: url, [TRUST_API_KEY_ENV_VAR]: MOCK_CREDENTIALS.trustApiKey },
            });
            break;
          }
          case 'mcp': {
            const [storeTools, directoryTools] = await Promise.all([
              readSyncedToolList('store').then(({ list }) =>
                startToolServer({
                  tools: list.tools,
                  credentials: {
                    'X-LOGIN-KEY': MOCK_CREDENTIALS.storeLogin,
                    'X-AUTH-TOKEN': MOCK_CREDENTIALS.storeAuthToken,
                  },
                  port: port(PORT_OFFSETS.storeTools),
                }),
              ),
              readSyncedToolList('directory').then(({ list }) =>
                startToolServer({ tools: list.tools, port: port(PORT_OFFSETS.directoryTools) }),
              ),
            ]);
            servers.push({ close: () => storeTools.close() }, { close: () => directoryTools.close() });
            running.push({
              service: 'store tools (MCP)',
              url: storeTools.url,
              env: {
                [STORE_MCP_ENV_VARS.url]: storeTools.url,
                [STORE_MCP_ENV_VARS.loginKey]: MOCK_CREDENTIALS.storeLogin,
                [STORE_MCP_ENV_VARS.authToken]: MOCK_CREDENTIALS.storeAuthToken,
              },
            });
            running.push({
              service: 'directory tools (MCP)',
              url: directoryTools.url,
              env: { [DIRECTORY_MCP_URL_ENV_VAR]: directoryTools.url },
            });
            break;
          }
        }
      }),
    );
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await stop();
    throw error;
  }
  const order = ['directory', 'store', 'trust', 'store tools (MCP)', 'directory tools (MCP)'];
  running.sort((a, b) => order.indexOf(a.service) - order.indexOf(b.service));
  return { engine, running, stop };
}

/** What `pnpm mock` prints: a table of base URLs, then the lines to paste into a shell or an `.env` file. */
export function describeMocks(running: readonly RunningMock[], engine: MockEngine = 'stand-ins'): string {
  const width = Math.max(...running.map((mock) => mock.service.length));
  return [
    `Serving ${MOCK_ENGINES[engine]}.`,
    'Mocks running (Ctrl-C stops them):',
    ...running.map((mock) => `  ${mock.service.padEnd(width)}  ${mock.url}`),
    '',
    'Paste into your shell (or an .env file without `export`):',
    // A variable two servers share (the store's credential pair) is printed once.
    ...new Set(running.flatMap((mock) => Object.entries(mock.env).map(([name, value]) => `export ${name}=${value}`))),
    '',
    ...(running.some((mock) => mock.service === 'store') ? [describeWebhookSample()] : []),
  ].join('\n');
}

/** The port in an "address in use" error of a server that could not listen, if that is what `error` is. */
export function takenPort(error: unknown): number | undefined {
  const failure = error as { code?: unknown; port?: unknown } | null;
  if (failure?.code !== 'EADDRINUSE') return undefined;
  return typeof failure.port === 'number' ? failure.port : -1;
}

async function main(args: string[]): Promise<void> {
  const engine: MockEngine = args.includes('--prism') ? 'prism' : 'stand-ins';
  const services = args.filter((arg) => arg !== '--prism');
  const unknown = services.filter((arg) => !MOCK_SERVICES.includes(arg as MockService));
  if (unknown.length > 0) {
    console.error(
      `pnpm mock: unknown service ${unknown.join(', ')}; choose from ${MOCK_SERVICES.join(', ')} (and --prism to serve Prism)`,
    );
    process.exitCode = 2;
    return;
  }
  const firstPort = process.env.MOCK_PORT === undefined ? DEFAULT_FIRST_PORT : Number(process.env.MOCK_PORT);
  if (!Number.isInteger(firstPort) || firstPort < 0 || firstPort > 65_530) {
    console.error(`pnpm mock: MOCK_PORT must be a port number (0 for free ports), got ${process.env.MOCK_PORT}`);
    process.exitCode = 2;
    return;
  }
  let mocks: Mocks;
  try {
    mocks = await startMocks(services as MockService[], firstPort, engine);
  } catch (error) {
    const port = takenPort(error);
    if (port === undefined) throw error;
    // One line, no stack: the port is someone else's, and MOCK_PORT is how to move.
    console.error(
      `pnpm mock: port ${port < 0 ? 'of a mock' : port} is taken; set MOCK_PORT to another first port (the mocks use ${Object.keys(PORT_OFFSETS).length} ports from it; MOCK_PORT=0 takes free ones)`,
    );
    process.exitCode = 1;
    return;
  }
  console.log(describeMocks(mocks.running, engine));
  const shutdown = () => {
    void mocks.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (import.meta.main) await main(process.argv.slice(2));
