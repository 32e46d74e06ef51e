/**
 * The floor of the contract suite, run as its own process: start the same Prism mocks the suite starts, send
 * the requests the suite sent (recorded by `record-requests.ts`) with plain `fetch`, reading every body, at the
 * suite's concurrency, then stop the mocks. Prints `{ requests, failed }` as JSON.
 *
 * Usage: node src/contract-floor.ts <recording.jsonl>
 */
import { readFile } from 'node:fs/promises';
import { operations as directory } from '@agent-apis/directory';
import { operations as store } from '@agent-apis/store';
import { startPrism } from '@agent-apis/test-servers/prism';
import { finalSpecFile } from '@agent-apis/test-utils/final-specs';
import { operationMatcher } from '@agent-apis/test-utils/operation-requests';
import { operations as trust } from '@agent-apis/trust';
import { runPool } from './measure.ts';
import { WORK_DIR } from './paths.ts';
import type { RecordedRequest } from './record-requests.ts';

/** As in the contract project: `maxConcurrency: 8` per test file, one file per service. */
const CONCURRENCY_PER_SERVICE = 8;
/** The seed the suite's global setup gives Prism. */
const SEED = '20261121';
const SERVICES = ['directory', 'store', 'trust'] as const;
type Service = (typeof SERVICES)[number];

/** Which service each recorded origin (one Prism mock) was: the one whose operations match most of its requests. */
async function serviceOfEachOrigin(requests: readonly RecordedRequest[]): Promise<Map<string, Service>> {
  // The clients' generated operation tables.
  const tables = { directory, store, trust };
  const matchers = SERVICES.map((service) => ({ service, match: operationMatcher(tables[service]) }));
  const votes = new Map<string, Map<Service, number>>();
  for (const recorded of requests) {
    const origin = new URL(recorded.url).origin;
    const tally = votes.get(origin) ?? new Map<Service, number>();
    votes.set(origin, tally);
    const probe = new Request(recorded.url, { method: recorded.method });
    for (const { service, match } of matchers) {
      if (match(probe)) tally.set(service, (tally.get(service) ?? 0) + 1);
    }
  }
  const services = new Map<string, Service>();
  for (const [origin, tally] of votes) {
    const [best] = [...tally].sort((a, b) => b[1] - a[1]);
    if (!best) throw new Error(`no service matches the requests sent to ${origin}`);
    services.set(origin, best[0]);
  }
  return services;
}

async function main(recordingFile: string): Promise<void> {
  const lines = (await readFile(recordingFile, 'utf8')).split('\n').filter(Boolean);
  const requests = lines.map((line) => JSON.parse(line) as RecordedRequest);
  const serviceOf = await serviceOfEachOrigin(requests);
  const servers = await Promise.all(
    SERVICES.map((service) =>
      startPrism({
        name: `${service}-floor`,
        spec: finalSpecFile(service),
        mode: 'mock',
        seed: SEED,
        logDir: WORK_DIR,
        readyTimeoutMs: 90_000,
      }),
    ),
  );
  let failed = 0;
  try {
    const urlOf = new Map(SERVICES.map((service, index) => [service, servers[index]?.url ?? '']));
    await Promise.all(
      SERVICES.map((service) => {
        const own = requests.filter((recorded) => serviceOf.get(new URL(recorded.url).origin) === service);
        return runPool(own.length, CONCURRENCY_PER_SERVICE, async (index) => {
          const recorded = own[index] as RecordedRequest;
          const original = new URL(recorded.url);
          const response = await fetch(`${urlOf.get(service)}${original.pathname}${original.search}`, {
            method: recorded.method,
            headers: recorded.headers,
            body: recorded.body,
          }).catch(() => undefined);
          if (!response) failed++;
          else await response.text();
        });
      }),
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  console.log(JSON.stringify({ requests: requests.length, failed }));
}

const recording = process.argv[2];
if (!recording) throw new Error('usage: node src/contract-floor.ts <recording.jsonl>');
await main(recording);
