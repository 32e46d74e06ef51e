import { describe, expect, it } from 'vitest';
import { listOperations } from './openapi.ts';
import { findPathConflicts } from './paths.ts';
import { buildSpec, checkFinalDocument, operationIdProblems, SpecCheckError } from './pipeline.ts';
import { SERVICE_NAMES } from './services.ts';
import { MIRROR } from './test-support.ts';

const built = Object.fromEntries(
  await Promise.all(
    SERVICE_NAMES.map(async (service) => [service, await buildSpec(service, { mirror: MIRROR })] as const),
  ),
);

describe('final documents', () => {
  it('reports operation counts per service: store 179, directory 11, trust at least 1', () => {
    const counts = Object.fromEntries(SERVICE_NAMES.map((service) => [service, built[service]?.operations]));
    console.log('operations per service:', counts);
    expect(counts.store).toBe(179);
    expect(counts.directory).toBe(11);
    expect(counts.trust).toBeGreaterThanOrEqual(1);
  });

  it.each(SERVICE_NAMES)('%s: every operation has a unique operationId', (service) => {
    const document = built[service]!.document;
    expect(operationIdProblems(document)).toEqual([]);
    const ids = listOperations(document).map((ref) => ref.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(SERVICE_NAMES)('%s: no colliding or ambiguous path templates, path parameters match templates', (service) => {
    expect(findPathConflicts(built[service]!.document)).toEqual([]);
  });

  it('applies the store overlay: upstream has no operationIds and colliding templates, the final has neither', async () => {
    const { readFile } = await import('node:fs/promises');
    const upstream = JSON.parse(await readFile(`${MIRROR}/store/openapi.json`, 'utf8'));
    expect(listOperations(upstream).filter((ref) => ref.operation.operationId)).toEqual([]);
    expect(findPathConflicts(upstream).length).toBeGreaterThan(0);
    const final = built.store!.document;
    expect(final.paths).not.toHaveProperty(['/jsapps/{id}.json']);
    expect(final.paths).not.toHaveProperty(['/products/{product_id}/images/{image_id}.json']);
    expect(final.paths?.['/products.json']?.get).toMatchObject({ operationId: 'listProducts' });
  });

  it.each(SERVICE_NAMES)(
    '%s: every operation carries one safety class (x-safety: read, write or dangerous)',
    (service) => {
      const unclassed = listOperations(built[service]!.document)
        .filter((ref) => !['read', 'write', 'dangerous'].includes(ref.operation['x-safety'] as string))
        .map((ref) => `${ref.method.toUpperCase()} ${ref.path}`);
      expect(unclassed).toEqual([]);
    },
  );

  it('classes by effect, not by method: a quota-spending POST reads, store setup and payment methods are dangerous', () => {
    const safety = (service: 'store' | 'trust', id: string) =>
      listOperations(built[service]!.document).find((ref) => ref.operation.operationId === id)?.operation['x-safety'];
    expect(safety('trust', 'decide')).toBe('read');
    expect(safety('store', 'calculateFulfillmentRates')).toBe('read');
    expect(safety('store', 'createProduct')).toBe('write');
    expect(safety('store', 'createStore')).toBe('dangerous');
    expect(safety('store', 'createPaymentMethod')).toBe('dangerous');
    expect(safety('store', 'createHook')).toBe('dangerous');
  });

  it('records the pinned source in the final document', () => {
    expect(built.store!.document.info['x-agent-apis-source']).toEqual({
      url: built.store!.lock!.source,
      sha256: built.store!.lock!.sha256,
    });
    expect(built.trust!.document.info['x-agent-apis-source']).toMatchObject({ sha256: built.trust!.sourceSha256 });
  });

  it('refuses a final document with a duplicate operationId or a colliding template', () => {
    const document = structuredClone(built.directory!.document);
    const [first, second] = listOperations(document);
    second!.operation.operationId = first!.operation.operationId;
    expect(() => checkFinalDocument('directory', document)).toThrow(SpecCheckError);
    expect(() => checkFinalDocument('directory', document)).toThrow(/reuses operationId/);
  });
});
