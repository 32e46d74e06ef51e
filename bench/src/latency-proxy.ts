/**
 * A loopback TCP proxy in front of a server that delays every chunk a client sends by `delayMs` (in order), so
 * each Redis command, or each pipeline of them, answers that much later: a slow Redis for `pnpm bench workers`.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';

export interface LatencyProxy {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `target` (a `redis://host:port` URL). */
export async function startLatencyProxy(target: string, delayMs: number): Promise<LatencyProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    sockets.add(client);
    sockets.add(upstream);
    // Chunks go out in order, each no sooner than `delayMs` after it arrived.
    let lastDue = 0;
    client.on('data', (chunk) => {
      const due = Math.max(Date.now() + delayMs, lastDue);
      lastDue = due;
      setTimeout(() => {
        if (!upstream.destroyed) upstream.write(chunk);
      }, due - Date.now());
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  const listening = await listenOnLoopback(server);
  return {
    url: `redis://127.0.0.1:${listening.port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return listening.close();
    },
  };
}
