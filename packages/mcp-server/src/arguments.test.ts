/**
 * The tool server's argument check is core's one checker: up to five problems, each naming its argument; every
 * schema of the tool table fully enforced by it; and one bad input judged alike (same field, same reason) by the
 * three paths that check arguments: a REST client's input check, an MCP tool client and this server.
 */

import { RequestValidationError } from '@agent-apis/core';
import { findViolation, unsupportedKeywords } from '@agent-apis/core/call';
import { DirectoryClient } from '@agent-apis/directory';
import { DirectoryTools, findViolation as mcpFindViolation } from '@agent-apis/mcp';
import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { describe, expect, it } from 'vitest';
import { argumentProblems } from './arguments.js';
import { OPERATIONS } from './catalog.js';
import type { ToolOperation } from './operation.js';
import { connect, textOf } from './test-support.js';

const listing: ToolOperation = {
  id: 'listThings',
  method: 'GET',
  path: '/things',
  summary: 'List things.',
  safety: 'read',
  resource: 'things',
  inputSchema: {
    type: 'object',
    properties: {
      q: { type: 'string', minLength: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 25 },
      tags: { type: 'array', items: { type: 'string' } },
      official: { type: 'boolean' },
    },
    required: ['q'],
    additionalProperties: false,
  },
};

describe('argumentProblems', () => {
  it('is empty for good arguments', () => {
    expect(argumentProblems(listing, { q: 'mug', limit: 25, tags: ['a'] })).toEqual([]);
  });

  it('names each bad argument with the checker’s reason, at most five', () => {
    expect(argumentProblems(listing, { limit: 0, tags: [1], colour: 'red' })).toEqual([
      'arguments.q is required',
      'arguments.limit must be at least 1',
      'arguments.tags[0] must be a string',
      'arguments.colour is not a known property',
    ]);
    const many = { limit: 'x', tags: [1, 2, 3, 4, 5, 6], official: 'yes' };
    expect(argumentProblems(listing, many)).toHaveLength(5);
    expect(argumentProblems(listing, [])).toEqual(['arguments must be an object']);
  });
});

describe('the tool table', () => {
  it('holds only schemas the checker enforces in full', () => {
    const unchecked = Object.entries(OPERATIONS).flatMap(([service, operations]) =>
      operations.flatMap((operation) =>
        unsupportedKeywords(operation.inputSchema as Parameters<typeof unsupportedKeywords>[0]).map(
          (problem) => `${service}.${operation.id}: ${problem}`,
        ),
      ),
    );
    expect(unchecked).toEqual([]);
  });
});

describe('one bad input, three paths, one verdict', () => {
  // The directory's MCP server listing: `official` is a boolean and `limit` an integer in the REST spec, in the tool
  // server's table and in the directory tool server's pinned schema alike.
  it.each([
    ['official', 'yes', 'must be a boolean'],
    ['limit', 2.5, 'must be an integer'],
  ])('%s = %j', async (name, value, reason) => {
    // The checker's own verdict: what every path must say.
    expect(findViolation({ type: name === 'official' ? 'boolean' : 'integer' }, value)?.reason).toBe(reason);
    const fetch = fetchStub(() => jsonResponse({ results: [] }));

    const rest = await new DirectoryClient({ baseUrl: 'http://127.0.0.1:9/api', fetch }).api
      .listMcpServers({ query: { [name]: value } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(rest).toBeInstanceOf(RequestValidationError);
    expect(rest).toMatchObject({ field: `query.${name}`, reason: `${reason}, got ${JSON.stringify(value)}` });

    const tools = new DirectoryTools({ url: 'http://127.0.0.1:9/mcp', fetch });
    const mcp = await tools.searchMcpServers({ query: 'x', [name]: value } as never).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(mcp).toBeInstanceOf(RequestValidationError);
    expect(mcp).toMatchObject({ field: `arguments.${name}`, reason });
    // The tool client's checker is core's, not a copy of its own.
    expect(mcpFindViolation).toBe(findViolation);

    const connected = await connect({ directory: { baseUrl: 'http://127.0.0.1:9/api', fetch } });
    try {
      const result = await connected.client.callTool({
        name: 'directory_list_mcp_servers',
        arguments: { [name]: value },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`^Not sent: arguments\\.${name} ${reason}\\.`));
    } finally {
      await connected.close();
    }
    expect(fetch).not.toHaveBeenCalled();
  });
});
