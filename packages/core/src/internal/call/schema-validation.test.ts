import { jsonResponse } from '@agent-apis/test-utils/fetch';
import { createFetch } from '@agent-apis/test-utils/operation-requests';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ResponseValidationError } from './answer-errors.js';
import { schemaResponseValidator } from './schema-validation.js';
import { createTransport } from './transport.js';

const Server = z.object({ owner: z.string(), stars: z.number().int() });

function client(body: unknown, schemaFor = (_operation: string) => Server) {
  const transport = createTransport({
    fetch: vi.fn(async () => jsonResponse(body)),
    validateResponse: schemaResponseValidator(schemaFor),
  });
  const operation = { id: 'getMcpServer', route: 'GET /api/mcp/{owner}/{repo}' };
  return (url: string) => transport.send({ method: 'GET', url, operation });
}

describe('schemaResponseValidator', () => {
  it('passes a conforming body through untouched', async () => {
    const response = await client({ owner: 'a', stars: 3 })('https://dir.test/api/mcp/a/b');
    expect(await response.json()).toEqual({ owner: 'a', stars: 3 });
  });

  it('refuses a body that breaks the schema, naming the operation, the field and the problem', async () => {
    const error = await client({ owner: 'a', stars: 'many' })('https://dir.test/api/mcp/a/b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const refusal = error as ResponseValidationError;
    expect(refusal.operation).toBe('getMcpServer');
    expect(refusal.issues[0]?.path).toBe('stars');
    expect(refusal.message).toMatch(/^Response of getMcpServer \(200\) does not match its schema at stars: /);
  });

  it('skips operations without a schema and non-JSON bodies', async () => {
    const noSchema = createFetch(createTransport, {
      fetch: vi.fn(async () => jsonResponse({ anything: true })),
      validateResponse: schemaResponseValidator(() => undefined),
    });
    await expect(noSchema('https://dir.test/x')).resolves.toBeInstanceOf(Response);
    const text = createFetch(createTransport, {
      fetch: vi.fn(async () => new Response('# llms.txt', { headers: { 'content-type': 'text/plain' } })),
      validateResponse: schemaResponseValidator(() => Server),
    });
    await expect((await text('https://dir.test/llms.txt')).text()).resolves.toBe('# llms.txt');
  });
});
