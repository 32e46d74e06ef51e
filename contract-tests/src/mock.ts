/**
 * `pnpm mock [service…]`: local mocks of the APIs on documented loopback ports, under the same base paths as the
 * real services, so a program points its base URLs at them and nothing else changes. Prism serves each final
 * spec (its paths moved under the service's base path: the store's `/v1`, trust's `/api`), and the agent tool
 * servers are the MCP SDK server of `@agent-apis/test-utils` answering every tool of the pinned tool lists with
 * schema-checked placeholder results. It prints each base URL and the environment lines to paste, then runs until
 * Ctrl-C.
 *
 * Services: `directory`, `store`, `trust`, `mcp` (both tool servers); none named means all. Ports start at 4010
 * (`MOCK_PORT` moves the first; `MOCK_PORT=0` takes free ports, as the tests do).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL_ENV_VAR as DIRECTORY_BASE_URL_ENV } from '@agent-apis/directory';
import { DIRECTORY_MCP_URL_ENV, STORE_MCP_ENV } from '@agent-apis/mcp';
import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { CREDENTIAL_ENV_VARS, BASE_URL_ENV_VAR as STORE_BASE_URL_ENV } from '@agent-apis/store';
import { API_KEY_ENV, BASE_URL_ENV as TRUST_BASE_URL_ENV } from '@agent-apis/trust';
import { type LocalToolServer, startToolServer } from './mcp-server.ts';
import { type PrismServer, startPrism } from './prism.ts';
import { SPECS_DIST } from './spec.ts';

export const MOCK_SERVICES = ['directory', 'store', 'trust', 'mcp'] as const;
export type MockService = (typeof MOCK_SERVICES)[number];

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

export interface RunningMock {
  service: string;
  url: string;
  env: Record<string, string>;
}

export interface Mocks {
  running: RunningMock[];
  stop(): Promise<void>;
}

/** The final spec with every path moved under `basePath`, written where Prism can read it. */
async function specUnder(service: keyof typeof BASE_PATHS, basePath: string, dir: string): Promise<string> {
  const document = JSON.parse(await readFile(join(SPECS_DIST, `${service}.openapi.json`), 'utf8')) as {
    paths: Record<string, unknown>;
  };
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [`${basePath}${path}`, item]),
  );
  const file = join(dir, `${service}.openapi.json`);
  await writeFile(file, JSON.stringify(document));
  return file;
}

/** Starts the mocks of `services` (all when empty); ports from `firstPort` (0: free ports). */
export async function startMocks(services: readonly MockService[], firstPort = DEFAULT_FIRST_PORT): Promise<Mocks> {
  const wanted = services.length > 0 ? services : MOCK_SERVICES;
  const port = (offset: number) => (firstPort === 0 ? 0 : firstPort + offset);
  const servers: (PrismServer | LocalToolServer)[] = [];
  const running: RunningMock[] = [];
  // A folder of this run's own (mkdtemp: a fresh name, created 0700), never a fixed path another user could plant.
  const dir = await mkdtemp(join(tmpdir(), 'agent-apis-mock-'));
  const stop = async () => {
    await Promise.all(servers.map((server) => ('close' in server ? server.close() : server.stop())));
    await rm(dir, { recursive: true, force: true });
  };
  const prism = async (service: keyof typeof BASE_PATHS) => {
    const server = await startPrism({
      name: `mock-${service}`,
      spec: await specUnder(service, BASE_PATHS[service], dir),
      logDir: dir,
      port: port(PORT_OFFSETS[service]),
      readyTimeoutMs: 90_000,
    });
    servers.push(server);
    return `${server.url}${BASE_PATHS[service]}`;
  };
  try {
    await Promise.all(
      wanted.map(async (service) => {
        switch (service) {
          case 'directory': {
            const url = await prism('directory');
            running.push({ service, url, env: { [DIRECTORY_BASE_URL_ENV]: url } });
            break;
          }
          case 'store': {
            const url = await prism('store');
            const env = {
              [STORE_BASE_URL_ENV]: url,
              [CREDENTIAL_ENV_VARS.login]: MOCK_CREDENTIALS.storeLogin,
              [CREDENTIAL_ENV_VARS.authToken]: MOCK_CREDENTIALS.storeAuthToken,
            };
            running.push({ service, url, env });
            break;
          }
          case 'trust': {
            const url = await prism('trust');
            running.push({
              service,
              url,
              env: { [TRUST_BASE_URL_ENV]: url, [API_KEY_ENV]: MOCK_CREDENTIALS.trustApiKey },
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
            servers.push(storeTools, directoryTools);
            running.push({
              service: 'store tools (MCP)',
              url: storeTools.url,
              env: {
                [STORE_MCP_ENV.url]: storeTools.url,
                [STORE_MCP_ENV.loginKey]: MOCK_CREDENTIALS.storeLogin,
                [STORE_MCP_ENV.authToken]: MOCK_CREDENTIALS.storeAuthToken,
              },
            });
            running.push({
              service: 'directory tools (MCP)',
              url: directoryTools.url,
              env: { [DIRECTORY_MCP_URL_ENV]: directoryTools.url },
            });
            break;
          }
        }
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const order = ['directory', 'store', 'trust', 'store tools (MCP)', 'directory tools (MCP)'];
  running.sort((a, b) => order.indexOf(a.service) - order.indexOf(b.service));
  return { running, stop };
}

/** What `pnpm mock` prints: a table of base URLs, then the lines to paste into a shell or an `.env` file. */
export function describeMocks(running: readonly RunningMock[]): string {
  const width = Math.max(...running.map((mock) => mock.service.length));
  return [
    'Mocks running (Ctrl-C stops them):',
    ...running.map((mock) => `  ${mock.service.padEnd(width)}  ${mock.url}`),
    '',
    'Paste into your shell (or an .env file without `export`):',
    // A variable two servers share (the store's credential pair) is printed once.
    ...new Set(running.flatMap((mock) => Object.entries(mock.env).map(([name, value]) => `export ${name}=${value}`))),
    '',
  ].join('\n');
}

async function main(args: string[]): Promise<void> {
  const unknown = args.filter((arg) => !MOCK_SERVICES.includes(arg as MockService));
  if (unknown.length > 0) {
    console.error(`pnpm mock: unknown service ${unknown.join(', ')}; choose from ${MOCK_SERVICES.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const firstPort = process.env.MOCK_PORT === undefined ? DEFAULT_FIRST_PORT : Number(process.env.MOCK_PORT);
  if (!Number.isInteger(firstPort) || firstPort < 0 || firstPort > 65_530) {
    console.error(`pnpm mock: MOCK_PORT must be a port number (0 for free ports), got ${process.env.MOCK_PORT}`);
    process.exitCode = 2;
    return;
  }
  const mocks = await startMocks(args as MockService[], firstPort);
  console.log(describeMocks(mocks.running));
  const shutdown = () => {
    void mocks.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (import.meta.main) await main(process.argv.slice(2));
