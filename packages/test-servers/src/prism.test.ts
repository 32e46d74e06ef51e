import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startPrism } from './prism.ts';

/** A folder of this run's own (a second `pnpm test` beside it has its own), for the spec and Prism's logs. */
let logDir = '';
let trustSpec = '';

/** A one-operation spec shaped like trust's `POST /v1/decide` (an API key, a JSON answer), owned by this test. */
const DECIDE_SPEC = {
  openapi: '3.1.0',
  info: { title: 'decide', version: '1.0.0' },
  components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  security: [{ apiKey: [] }],
  paths: {
    '/v1/decide': {
      post: {
        operationId: 'decide',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['target'] } } },
        },
        responses: {
          '200': {
            description: 'decided',
            content: {
              'application/json': {
                schema: { type: 'object' },
                example: { decision: { recommended_action: 'allow' } },
              },
            },
          },
          '401': { description: 'no key' },
        },
      },
    },
  },
};

beforeAll(async () => {
  logDir = await mkdtemp(join(tmpdir(), 'agent-apis-prism-test-'));
  trustSpec = join(logDir, 'decide.openapi.json');
  await writeFile(trustSpec, JSON.stringify(DECIDE_SPEC));
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Prism takes seconds to start on a busy machine; the launcher's own ready timeout bounds each wait. */
const PRISM_TEST_TIMEOUT = 120_000;

describe('startPrism', () => {
  it(
    'starts a real Prism process on a free port, serves the spec, logs to a file and stops by its PID',
    async () => {
      const prism = await startPrism({ name: 'trust-harness', spec: trustSpec, logDir });
      try {
        expect(isRunning(prism.pid)).toBe(true);
        const unauthenticated = await fetch(`${prism.url}/v1/decide`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ target: { type: 'domain', value: 'example.com' } }),
        });
        expect(unauthenticated.status).toBe(401);
        const decided = await fetch(`${prism.url}/v1/decide`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'sk_ent0_test' },
          body: JSON.stringify({ target: { type: 'domain', value: 'example.com' } }),
        });
        expect(decided.status).toBe(200);
        expect(await decided.json()).toHaveProperty('decision.recommended_action');
      } finally {
        await prism.stop();
      }
      expect(isRunning(prism.pid)).toBe(false);
      expect(existsSync(prism.logFile)).toBe(true);
      expect(await prism.log()).toContain('Prism is listening');
    },
    PRISM_TEST_TIMEOUT,
  );

  it(
    'fails with the log when the spec cannot be served',
    async () => {
      await expect(
        startPrism({ name: 'missing', spec: '/nonexistent/spec.json', logDir, readyTimeoutMs: 20_000 }),
      ).rejects.toThrow(/missing: Prism exited with code \d+ before listening\.[\s\S]*nonexistent/);
    },
    PRISM_TEST_TIMEOUT,
  );
});
