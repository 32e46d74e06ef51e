/**
 * The minimal local server of the overhead benchmark: plain `node:http`, one fixed JSON body per route, run in
 * its own process so that its work does not share the event loop with the clients being measured.
 *
 * Routes: `GET /api/stats` (directory getStats), `GET /v1/products.json` (store listProducts) and
 * `POST /api/v1/decide` (trust decide). Bodies come from the final specs' examples where they have one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';
import { finalSpec } from './paths.ts';

interface JsonExampleHolder {
  content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }>;
}

/** The example of an operation's 200 response in the final spec (`example`, else the named one in `examples`). */
export function specExample(
  service: 'directory' | 'store' | 'trust',
  path: string,
  method: string,
  name?: string,
): unknown {
  const spec = JSON.parse(readFileSync(finalSpec(service), 'utf8'));
  const response: JsonExampleHolder | undefined = spec.paths?.[path]?.[method]?.responses?.['200'];
  const media = response?.content?.['application/json'];
  const example = name ? media?.examples?.[name]?.value : media?.example;
  if (example === undefined) throw new Error(`${service}: no example for ${method.toUpperCase()} ${path}`);
  return example;
}

/** A decision valid for the next hour, so that clients that cache decisions keep it. */
export function cannedDecision(validForSeconds = 3_600): Record<string, unknown> {
  const decision = specExample('trust', '/v1/decide', 'post', 'proceed') as Record<string, unknown>;
  const now = Date.now();
  return {
    ...decision,
    validity: {
      evaluated_at: new Date(now).toISOString(),
      valid_until: new Date(now + validForSeconds * 1_000).toISOString(),
      ttl_seconds: validForSeconds,
    },
  };
}

/** Ten products in the shape the store lists them (its spec has no example for the list). */
function cannedProducts(): unknown[] {
  return Array.from({ length: 10 }, (_, index) => ({
    product: { id: index + 1, name: `Product ${index + 1}`, price: 10 + index, status: 'available', stock: 100 },
  }));
}

/** The canned JSON bodies by `METHOD /path`. */
export function cannedBodies(): Record<string, Buffer> {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value));
  return {
    'GET /api/stats': encode(specExample('directory', '/api/stats', 'get')),
    'GET /v1/products.json': encode(cannedProducts()),
    'POST /api/v1/decide': encode(cannedDecision()),
  };
}

/** The canned answer to `method` on `path`: 200 with its JSON body, or 404. */
export function cannedAnswer(
  bodies: Record<string, Buffer>,
  method: string,
  path: string,
): { status: number; headers: Record<string, string>; body: Buffer } {
  const body = bodies[`${method} ${path}`];
  if (!body)
    return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":"not found"}') };
  return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body };
}

/**
 * A `fetch` that answers from memory exactly as the canned server would, with no network: what is left of a
 * call's time through it is the work done on the client side.
 */
export function inMemoryFetch(): typeof fetch {
  const bodies = cannedBodies();
  return async (input, init) => {
    const request = new Request(input, init);
    await request.arrayBuffer();
    const answer = cannedAnswer(bodies, request.method, new URL(request.url).pathname);
    return new Response(new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  };
}

async function serve(): Promise<void> {
  const bodies = cannedBodies();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const answer = cannedAnswer(bodies, request.method ?? 'GET', (request.url ?? '').split('?')[0] ?? '');
      response.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  server.keepAliveTimeout = 60_000;
  console.log(`listening ${(await listenOnLoopback(server)).port}`);
}

/** A running canned server process. */
export interface CannedServer {
  origin: string;
  stop(): void;
}

/** Starts the canned server in a child process and resolves with its origin once it listens. */
export async function startCannedServer(): Promise<CannedServer> {
  const child: ChildProcess = spawn(process.execPath, [import.meta.filename], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (!child.stdout) throw new Error('canned server: no stdout');
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`canned server exited with ${code}`)));
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

if (import.meta.main) await serve();
