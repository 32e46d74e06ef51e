/**
 * A real loopback HTTP server for fault tests: it answers normally through `respond`, but for any request
 * `fault` picks it can instead answer with an error status (429 with `Retry-After`, 503, …), reset the
 * connection, stall before or after the headers, cut the body short, or label the body with the wrong content
 * type. It records every request it receives, so tests can count what was actually sent.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';

/**
 * 64 MiB of spaces (8 times the clients' default cap), gzipped once when the module loads (about 64 KiB), so
 * no answer waits for the compression.
 */
const GZIP_BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024, 32), { level: 1 });

/** One request as the server received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, e.g. `/v1/products.json?page=2&limit=50`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The fault played instead of the normal answer, if any. */
  fault?: Fault;
}

/** A normal answer. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** Serialised as JSON unless it is a string. */
  body: unknown;
}

/** What the server can do instead of answering normally. */
export type Fault =
  /** An error status, e.g. 429 with `retry-after`, or 503. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** The connection is reset (TCP RST) before any byte of the response. */
  | { kind: 'reset' }
  /** Nothing is ever sent back; the request hangs until the client gives up. */
  | { kind: 'stall-headers' }
  /** Status and headers go out, then the first half of the body, then nothing more. */
  | { kind: 'stall-body' }
  /** The full `content-length` is announced, half the body is sent, and the connection closes. */
  | { kind: 'truncate' }
  /** A complete response (its `content-length` matches) whose JSON body is cut in half. */
  | { kind: 'malformed-json' }
  /** A 200 with an HTML page, as a captive portal or a misrouted proxy sends. */
  | { kind: 'wrong-content-type' }
  /** A 200 JSON body that never ends (64 KiB chunks for as long as the client reads). */
  | { kind: 'endless-body' }
  /** A 200 gzip body of about 64 KiB that inflates to 64 MiB of spaces. */
  | { kind: 'gzip-bomb' }
  /** A 500 whose headers go out, then part of its error body, then nothing more. */
  | { kind: 'stall-error-body' }
  /** A redirect (302 unless `status` says otherwise) to `location`, e.g. another origin. */
  | { kind: 'redirect'; location: string; status?: number }
  /** A 304 Not Modified to a request that asked for no revalidation. */
  | { kind: 'not-modified' };

export interface FaultServerOptions {
  /** The normal answer to a request. */
  respond: (request: ReceivedRequest) => Answer;
  /** Called for every request in arrival order: a fault to play instead of the normal answer, or undefined. */
  fault?: (request: ReceivedRequest, index: number) => Fault | undefined;
}

export interface FaultServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: readonly ReceivedRequest[];
  /** How many requests had this method and path (query ignored). */
  count(method: string, path: string): number;
  close(): Promise<void>;
}

/** `fault` for {@link FaultServerOptions}: plays `faults` on the first requests, one each, then answers normally. */
export function faultsFirst(...faults: Fault[]): NonNullable<FaultServerOptions['fault']> {
  return (_request, index) => faults[index];
}

/**
 * `fault` for {@link FaultServerOptions}: exactly one request in every block of `oneIn` consecutive requests
 * meets a fault (a share of 1/`oneIn`), at a position and of a kind (from `faults`) drawn at random. The draws
 * come from a linear congruential generator started at `seed`, so a run repeats exactly.
 */
export function seededFaults(
  seed: number,
  oneIn: number,
  faults: readonly Fault[],
): NonNullable<FaultServerOptions['fault']> {
  let state = seed >>> 0;
  const draw = (choices: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return Math.floor((state / 2 ** 32) * choices);
  };
  let faultyPosition = 0;
  return (_request, index) => {
    const position = index % oneIn;
    if (position === 0) faultyPosition = draw(oneIn);
    return position === faultyPosition ? faults[draw(faults.length)] : undefined;
  };
}

function encode(answer: Answer): { status: number; headers: Record<string, string>; body: Buffer } {
  const isText = typeof answer.body === 'string';
  const body = Buffer.from(isText ? (answer.body as string) : JSON.stringify(answer.body));
  return {
    status: answer.status ?? 200,
    headers: {
      'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json',
      'content-length': String(body.length),
      ...answer.headers,
    },
    body,
  };
}

function play(fault: Fault, normal: Answer, response: ServerResponse): void {
  const socket = response.socket;
  switch (fault.kind) {
    case 'status': {
      const body = fault.body ?? JSON.stringify({ message: `fault ${fault.status}` });
      response.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers }).end(body);
      return;
    }
    case 'reset':
      socket?.resetAndDestroy();
      return;
    case 'stall-headers':
      return;
    case 'stall-body': {
      const { status, headers, body } = encode(normal);
      response.writeHead(status, headers);
      response.write(body.subarray(0, Math.floor(body.length / 2)));
      return;
    }
    case 'truncate': {
      const { status, headers, body } = encode(normal);
      response.writeHead(status, headers);
      response.write(body.subarray(0, Math.floor(body.length / 2)), () => socket?.destroy());
      return;
    }
    case 'malformed-json': {
      const { status, headers, body } = encode(normal);
      const half = body.subarray(0, Math.floor(body.length / 2));
      response.writeHead(status, { ...headers, 'content-length': String(half.length) }).end(half);
      return;
    }
    case 'wrong-content-type':
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Sign in to the network</title><p>Please sign in.</p>');
      return;
    case 'endless-body': {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 32);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) {}
      };
      response.on('drain', pump);
      response.on('close', () => response.off('drain', pump));
      pump();
      return;
    }
    case 'gzip-bomb':
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(GZIP_BOMB);
      return;
    case 'stall-error-body':
      response.writeHead(500, { 'content-type': 'application/json' });
      response.write('{"message":"internal');
      return;
    case 'redirect':
      response.writeHead(fault.status ?? 302, { location: fault.location }).end();
      return;
    case 'not-modified':
      response.writeHead(304, { etag: '"never-asked"' }).end();
      return;
  }
}

/** Starts a fault server on a free loopback port. */
export async function startFaultServer(options: FaultServerOptions): Promise<FaultServer> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const index = requests.push(request) - 1;
      const normal = options.respond(request);
      const fault = options.fault?.(request, index);
      if (!fault) {
        const { status, headers, body } = encode(normal);
        response.writeHead(status, headers).end(body);
        return;
      }
      request.fault = fault;
      play(fault, normal, response);
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    url: origin,
    requests,
    count: (method, path) =>
      requests.filter((request) => request.method === method && request.url.split('?')[0] === path).length,
    close,
  };
}
