/**
 * Starts one Prism mock of the final spec per service for the contract project. With CONTRACT_TARGET=live no
 * Prism runs: the tests talk to each configured service directly (`checks/live.ts` does the checking), so nothing
 * mock-only (Prism's `Prefer` header) can reach a live service.
 * The servers' URLs reach the tests through `provide`/`inject`; every process is stopped by its PID.
 * The teardown writes the run's reports (coverage, states, history, HTML page, JUnit); `contract-run.ts` turns
 * them into the exit code of `pnpm contract`.
 */

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type PrismServer, startPrism } from '@agent-apis/test-servers/prism';
import { finalSpecFile } from '@agent-apis/test-utils/final-specs';
import type { TestProject } from 'vitest/node';
import { liveTargets, mockTargets, type ServiceTarget } from '../engine/targets.ts';
import { clearCoverage, coverageDir } from '../evidence/coverage.ts';
import { writeCoverageReports } from '../report/coverage-md.ts';
import { nightsKept } from '../report/history.ts';
import { HTML_FILE, RUN_FILE } from '../report/run-report.ts';
import { clearEvidence } from '../report/states.ts';
import { contractTarget, REPORTS_DIR } from '../settings.ts';

/** A fixed seed so dynamic (faker) responses repeat from run to run. */
const SEED = '20261121';

export default async function setup(project: TestProject) {
  const live = contractTarget() === 'live';
  // The teardown keeps CONTRACT_HISTORY_NIGHTS nights: a value out of its range stops the run here, before anything is sent.
  nightsKept(process.env);
  const targets = live ? liveTargets(process.env) : mockTargets();
  const dir = coverageDir(live ? 'live' : 'mock');
  // Nothing of an earlier run may speak for this one: coverage, evidence, and the judgement `pnpm contract` reads.
  await clearCoverage(dir);
  await clearEvidence(dir);
  await Promise.all([RUN_FILE, HTML_FILE].map((file) => rm(join(dir, file), { force: true })));
  const servers: PrismServer[] = [];
  const provided: Record<string, ServiceTarget> = {};
  try {
    await Promise.all(
      Object.values(targets).map(async (target) => {
        if (live) {
          provided[target.service] = target.upstream ? { ...target, baseUrl: target.upstream } : target;
          return;
        }
        const server = await startPrism({
          name: `${target.service}-mock`,
          spec: finalSpecFile(target.service),
          seed: SEED,
          logDir: REPORTS_DIR,
          readyTimeoutMs: 90_000,
        });
        servers.push(server);
        provided[target.service] = { ...target, baseUrl: server.url, prismLog: server.logFile };
      }),
    );
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
  project.provide('contractTargets', provided);
  project.provide('contractMode', live ? 'live' : 'mock');
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
    // Coverage, states, history, HTML page and JUnit of the run (`report/coverage-md.ts`, `report/run-report.ts`).
    await writeCoverageReports(dir, live ? 'live' : 'mock');
  };
}

declare module 'vitest' {
  interface ProvidedContext {
    contractTargets: Record<string, ServiceTarget>;
    contractMode: 'mock' | 'live';
  }
}
