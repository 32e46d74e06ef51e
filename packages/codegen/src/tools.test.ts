import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { describe, expect, it } from 'vitest';
import { describeToolOperations, inlineSchema, shortText } from './tools.ts';

const document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  components: {
    schemas: {
      Node: {
        type: 'object',
        properties: { name: { type: 'string', nullable: true }, child: { $ref: '#/components/schemas/Node' } },
      },
      Id: { type: 'integer', format: 'int32', example: 3, 'x-vendor': true },
    },
  },
  paths: {
    '/nodes/{id}.json': {
      get: {
        operationId: 'getNode',
        summary: 'Retrieve a node. More prose follows here.',
        'x-safety': 'read',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' } },
          { name: 'at', in: 'query', schema: { type: 'string', format: 'date-time' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
      put: {
        operationId: 'updateNode',
        'x-safety': 'write',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/decide': {
      post: {
        operationId: 'decide',
        'x-safety': 'read',
        'x-spends-quota': true,
        responses: { '200': { description: 'ok' } },
      },
    },
  },
} as unknown as OpenApiDocument;

describe('tools', () => {
  it('inlines references (a cycle becomes {}), folds nullable, drops vendor keywords and OpenAPI formats', () => {
    const node = inlineSchema(document, { $ref: '#/components/schemas/Node' });
    expect(node).toEqual({
      type: 'object',
      properties: { name: { type: ['string', 'null'] }, child: {} },
    });
    expect(inlineSchema(document, { $ref: '#/components/schemas/Id' })).toEqual({ type: 'integer' });
  });

  it('describes each operation: class, resource, short summary, one object input schema', () => {
    const [get, put, decide] = describeToolOperations(document);
    expect(get).toMatchObject({ id: 'getNode', safety: 'read', resource: 'nodes', summary: 'Retrieve a node.' });
    expect(get?.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, at: { type: 'string', format: 'date-time' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(put?.inputSchema.required).toEqual(['id', 'body']);
    expect(put?.safety).toBe('write');
    expect(decide?.safety).toBe('spends-quota');
    expect(JSON.stringify(describeToolOperations(document))).not.toContain('$ref');
  });

  it('refuses an operation without a safety class', () => {
    const unclassed = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    delete unclassed.paths['/decide']!.post!['x-safety'];
    expect(() => describeToolOperations(unclassed as unknown as OpenApiDocument)).toThrow(
      /POST \/decide \(decide\) has no x-safety/,
    );
  });

  it('keeps the first sentence of prose, at most 160 characters', () => {
    expect(shortText('One.  Two.')).toBe('One.');
    expect(shortText('x'.repeat(300))).toHaveLength(160);
  });
});
