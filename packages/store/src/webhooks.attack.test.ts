/*
 * The README's example webhook server (examples/webhooks.ts) run as a real process and attacked over loopback:
 * half-sent bodies, resets, slow senders and hundreds of stalled connections, with genuine deliveries in between.
 * Its memory is read from /proc (Linux).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOKEN = 'hooks-token-attack-7f3a';
const EXAMPLE = fileURLToPath(new URL('../examples/webhooks.ts', import.meta.url));
const SOURCE = fileURLToPath(new URL('./webhooks.ts', import.meta.url));
/** The example imports the package by name; in the test process that name means the sources (as in vitest.config). */
const RESOLVE_TO_SOURCE = `data:text/javascript,${encodeURIComponent(
  'import{registerHooks}from"node:module";import{pathToFileURL}from"node:url";' +
    'const target=pathToFileURL(process.env.WEBHOOKS_SOURCE).href;' +
    'registerHooks({resolve(s,c,n){return s==="@agent-apis/store/webhooks"?{url:target,shortCircuit:true}:n(s,c)}});',
)}`;
const PROC = existsSync('/proc/self/status');

function sign(body: string): string {
  return createHmac('sha256', TOKEN).update(body).digest('base64');
}

/** A base64 SHA-256 digest that is well-formed and wrong: it passes the header check, never the signature. */
const FORGED = Buffer.alloc(32, 7).toString('base64');

let server: ChildProcess;
let port = 0;
const printed: string[] = [];

function rssMiB(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return Math.round(kib / 1024);
}

function alive(): boolean {
  return server.exitCode === null && server.signalCode === null;
}

/** A genuine order_paid delivery, signed with the hooks token; resolves to the status and the line it printed. */
async function genuine(id: number): Promise<{ status: number; printed: boolean }> {
  const body = JSON.stringify({ order: { id, status: 'Paid', total: 10 + id, currency: 'CLP' } });
  const response = await fetch(`http://127.0.0.1:${port}/hooks?event=order_paid`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Jumpseller-Hmac-Sha256': sign(body) },
    body,
  });
  await response.text();
  // Printed before the answer was sent; stdout may still be on its way.
  const line = `Order ${id} paid: ${10 + id}`;
  for (let waited = 0; !printed.includes(line) && waited < 2_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { status: response.status, printed: printed.includes(line) };
}

/** Opens a raw connection and sends a request head announcing `length` body bytes. */
function openDelivery(length: number, signature = FORGED): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /hooks?event=order_paid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${length}\r\nJumpseller-Hmac-Sha256: ${signature}\r\n\r\n`,
      );
      resolve(socket);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent on `socket` once it closed the connection (or after `ms`). */
function closedBy(socket: Socket, ms: number): Promise<{ answer: string; closed: boolean }> {
  return new Promise((resolve) => {
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    const timer = setTimeout(() => resolve({ answer, closed: false }), ms);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer, closed: true });
    });
  });
}

beforeAll(async () => {
  server = spawn(process.execPath, ['--import', RESOLVE_TO_SOURCE, EXAMPLE], {
    env: { ...process.env, STORE_HOOKS_TOKEN: TOKEN, PORT: '0', WEBHOOKS_SOURCE: SOURCE },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.setEncoding('utf8').on('data', (text: string) => printed.push(...text.trim().split('\n')));
  server.stderr?.setEncoding('utf8').on('data', (text: string) => printed.push(text));
  await new Promise<void>((resolve, reject) => {
    const started = setInterval(() => {
      const line = printed.find((entry) => entry.startsWith('Listening for webhooks on port '));
      if (line) {
        clearInterval(started);
        port = Number(line.slice('Listening for webhooks on port '.length));
        resolve();
      } else if (!alive()) {
        clearInterval(started);
        reject(new Error(`the example server exited: ${printed.join('\n')}`));
      }
    }, 20);
  });
});

afterAll(() => {
  if (alive()) server.kill();
});

describe('the example webhook server under attack', () => {
  it('answers a genuine delivery, and refuses a product delivery re-posted as order_paid', async () => {
    expect(await genuine(1)).toEqual({ status: 200, printed: true });
    const product = JSON.stringify({ product: { id: 7, name: 'Mug' } });
    const response = await fetch(`http://127.0.0.1:${port}/hooks?event=order_paid`, {
      method: 'POST',
      headers: { 'Jumpseller-Hmac-Sha256': sign(product) },
      body: product,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('must be an order record');
  });

  it('answers an unsigned request 401 before its body arrives', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /hooks?event=order_paid HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n');
    const { answer } = await closedBy(socket, 5_000);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    socket.destroy();
  });

  it('survives 100 half-sent bodies, half of them reset, and keeps answering', async () => {
    const sockets = await Promise.all(Array.from({ length: 100 }, () => openDelivery(2_000)));
    for (const [index, socket] of sockets.entries()) {
      socket.write('{"order":{"id":1,'.padEnd(1_000, ' '));
      if (index % 2 === 0) socket.resetAndDestroy();
      else socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alive()).toBe(true);
    expect(await genuine(2)).toEqual({ status: 200, printed: true });
    expect(alive()).toBe(true);
  });

  it('cuts off a slow sender at the body deadline', { timeout: 60_000 }, async () => {
    const socket = await openDelivery(1_000);
    const drip = setInterval(() => socket.write(' '), 500);
    // A sender that never stops: only the body deadline ends it, with a 408 (no bound on how long that took).
    const { answer, closed } = await closedBy(socket, 30_000);
    clearInterval(drip);
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it.skipIf(!PROC)(
    'holds bounded memory with 300 stalled connections of 900 KiB each, answering genuine deliveries meanwhile (skipped where /proc is missing: RSS is read from it)',
    { timeout: 60_000 },
    async () => {
      const before = rssMiB();
      const partial = Buffer.alloc(900 * 1024, 0x20);
      const sockets: Socket[] = [];
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMiB());
      }, 25);
      try {
        for (let i = 0; i < 300; i++) {
          const socket = await openDelivery(1_000_000);
          socket.write(partial);
          sockets.push(socket);
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const during = await Promise.all([genuine(3), genuine(4), genuine(5)]);
        expect(during).toEqual([
          { status: 200, printed: true },
          { status: 200, printed: true },
          { status: 200, printed: true },
        ]);
      } finally {
        clearInterval(sampler);
        for (const socket of sockets) socket.destroy();
      }
      console.log(`example webhook server RSS: ${before} MiB before, ${peak} MiB peak with 300 stalled connections`);
      expect(alive()).toBe(true);
      // 16 MiB of bodies (maxPendingBytes) plus socket and GC slack; buffering every body held 280 MB and more.
      expect(peak - before).toBeLessThan(64);
    },
  );

  it('handles a delivery once whichever of the four base64 spellings of its digest comes (finding: webhook replay)', async () => {
    const body = JSON.stringify({ order: { id: 77, status: 'Paid', total: 87, currency: 'CLP' } });
    const canonical = sign(body);
    // The 43rd character holds 4 bits of the digest and 2 spare bits: the same bytes, four spellings.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const sixBits = alphabet.indexOf(canonical[42] as string);
    const spellings = [0, 1, 2, 3].map((spare) => `${canonical.slice(0, 42)}${alphabet[(sixBits & ~3) | spare]}=`);
    expect(spellings.map((each) => Buffer.from(each, 'base64').equals(Buffer.from(canonical, 'base64')))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    const statuses: number[] = [];
    for (const signature of [...spellings, canonical]) {
      const response = await fetch(`http://127.0.0.1:${port}/hooks?event=order_paid`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Jumpseller-Hmac-Sha256': signature },
        body,
      });
      statuses.push(response.status);
      await response.text();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(printed.filter((line) => line === 'Order 77 paid: 87')).toHaveLength(1);
    // The canonical spelling is handled once, then a duplicate; the three others are not digests at all.
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.at(-1)).toBe(200);
  });

  it('closes a connection whose headers never finish at its 10 s headersTimeout, not ~30 s later (finding: slow headers)', {
    timeout: 40_000,
  }, async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /hooks?event=order_paid HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 1_000);
    // Node checks headersTimeout every connectionsCheckingInterval (30 s unless set): closed within 20 s means it
    // is checked at the example's 1 s.
    const { closed } = await closedBy(socket, 20_000);
    clearInterval(drip);
    socket.destroy();
    expect(closed).toBe(true);
  });

  it('answers a hook URL without ?event= with a message saying how to name the event (issue 29 papercut)', async () => {
    const body = JSON.stringify({ order: { id: 78 } });
    const response = await fetch(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST',
      headers: { 'Jumpseller-Hmac-Sha256': sign(body) },
      body,
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('null');
    expect(text).toContain('?event=');
  });
});
