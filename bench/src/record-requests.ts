/**
 * Preloaded (`node --import`) into the contract suite's processes by the contract section: wraps the global
 * `fetch` so that every request the suite sends is appended, as one JSON line, to BENCH_RECORD_FILE. The
 * requests are then sent again raw to measure the suite's floor. Does nothing when the variable is unset.
 */
import { appendFileSync } from 'node:fs';

/** One recorded request. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

const file = process.env.BENCH_RECORD_FILE;
if (file) {
  const send = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const recorded: RecordedRequest = { method: request.method, url: request.url, headers: [...request.headers] };
    if (request.body) recorded.body = await request.clone().text();
    appendFileSync(file, `${JSON.stringify(recorded)}\n`);
    return send(request);
  };
}
