/**
 * Code mode through the MCP SDK client against the stand-ins: the tools it lists and their annotations, the
 * declarations, the dispatch every script call goes through (refusals, argument checks), paging of a script's
 * result, and five multi-step tasks whose answers match what direct tools give.
 */
import { jsonFetch } from '@agent-apis/test-utils/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../answer.js';
import { readConfig } from '../env.js';
import { type Connected, connect, type Mocks, startMocks, textOf } from '../test-support.js';
import { CODE_TASKS, type DirectCall } from './tasks-test-support.js';

let mocks: Mocks;
let code: Connected;
let direct: Connected;

beforeAll(async () => {
  mocks = await startMocks();
  code = await connect({ ...mocks.options, codeMode: true });
  direct = await connect({ ...mocks.options });
});

afterAll(async () => {
  await code?.close();
  await direct?.close();
  await mocks?.close();
});

async function call(connected: Connected, name: string, args: Record<string, unknown>) {
  return connected.client.callTool({ name, arguments: args });
}

async function execute(script: string, connected = code) {
  const result = await call(connected, 'execute', { code: script });
  return { result, text: textOf(result), answer: result.structuredContent as Answer | undefined };
}

describe('code mode', () => {
  it('lists describe_operations, execute and answer_more; execute is read-only only while writes are refused', async () => {
    const { tools } = await code.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['describe_operations', 'execute', 'answer_more']);
    expect(tools[1]?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const writable = await connect({ ...mocks.options, codeMode: true, allowWrites: ['store'] });
    try {
      const listed = await writable.client.listTools();
      expect(listed.tools[1]?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    } finally {
      await writable.close();
    }
    // Writes allowed for an API the server does not serve: nothing a script can send writes.
    const unserved = await connect({
      ...mocks.options,
      services: ['directory'],
      codeMode: true,
      allowWrites: ['store'],
    });
    try {
      const listed = await unserved.client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(['describe_operations', 'execute', 'answer_more']);
      expect(listed.tools[1]?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    } finally {
      await unserved.close();
    }
  });

  it('is on with --code-mode or AGENT_APIS_MCP_CODE_MODE=1, off by default', () => {
    expect(readConfig(['--code-mode'], {}).codeMode).toBe(true);
    expect(readConfig([], { AGENT_APIS_MCP_CODE_MODE: '1' }).codeMode).toBe(true);
    expect(readConfig([], {}).codeMode).toBe(false);
  });

  it('describes operations as compact TypeScript declarations, and names every operation without a query', async () => {
    const described = await call(code, 'describe_operations', { query: 'list products', limit: 1 });
    // The whole answer is the declarations; a summary that restates the name and the `read` class are left out.
    expect(textOf(described)).toBe(
      JSON.stringify({
        data: 'declare const store: {\nlistProducts(args?:{limit?:number;page?:number;locale?:string}):Promise<any>;\n};',
      }),
    );
    const decide = await call(code, 'describe_operations', { query: 'list mcp servers, trust decide', limit: 2 });
    expect((decide.structuredContent as { data: string }).data).toMatch(
      /^declare const directory: \{\n\/\*\* List tool servers, ordered by stars \(highest first\) \*\/\nlistMcpServers\(args\?:\{q\?:string;[^\n]*\):Promise<any>;\n\};\ndeclare const trust: \{\n\/\*\* Decide how an agent should treat a domain or URL; spends-quota \*\/\ndecide\(args:\{body:\{target:\{type:'domain'\|'url';value:string\};/,
    );
    const index = await call(code, 'describe_operations', {});
    const { operations } = (index.structuredContent as { data: { operations: Record<string, string> } }).data;
    expect(Object.keys(operations)).toEqual(['directory', 'store', 'trust']);
    expect(operations.trust).toBe('decide, decideBatch, scoreDomain, scoreDomainBatch');
  });

  it('refuses a write inside a script before anything is sent, and the script can catch it', async () => {
    const before = mocks.store.requests.length;
    const { text, answer } = await execute(
      "try { await store.createProduct({ body: { product: { name: 'Mug', price: 9 } } }); return 'sent'; } catch (e) { return e.message; }",
    );
    expect((answer as { data: string }).data, text).toMatch(/^Refused: store\.createProduct .* --allow-writes=store/);
    expect(mocks.store.requests.slice(before).map((request) => request.operation)).toEqual([]);
  });

  it('sends a write when the server allows the store’s writes', async () => {
    const writable = await connect({ ...mocks.options, codeMode: true, allowWrites: ['store'] });
    try {
      const { text, answer } = await execute(
        "const { product } = await store.createProduct({ body: { product: { name: 'Mug', price: 9 } } }); await store.deleteProduct({ id: product.id }); return product.name;",
        writable,
      );
      expect((answer as { data: string }).data, text).toBe('Mug');
    } finally {
      await writable.close();
    }
  });

  it('checks arguments against the operation’s schema before sending', async () => {
    const { text } = await execute("return await store.getProduct({ id: 'not a number', extra: 1 });");
    expect(text).toMatch(/The script failed after 1 API call\(s\): Error: Not sent: .*id/);
  });

  it('pages a script result over the answer cap, and answer_more brings the rest', async () => {
    const small = await connect({ ...mocks.options, codeMode: true, maxAnswerBytes: 700 });
    try {
      const script = 'return (await store.listProducts({})).map((entry) => entry.product);';
      const first = (await call(small, 'execute', { code: script })).structuredContent as Answer;
      expect(first.cursor).toEqual(expect.any(String));
      const pages = [first];
      while (pages.at(-1)?.cursor) {
        pages.push((await call(small, 'answer_more', { cursor: pages.at(-1)?.cursor })).structuredContent as Answer);
      }
      const names = pages.flatMap((page) => (page.data as { name: string }[]).map((p) => p.name));
      const whole = await execute('return (await store.listProducts({})).map((entry) => entry.product.name);');
      expect(names).toEqual((whole.answer as { data: string[] }).data);
    } finally {
      await small.close();
    }
  });

  it('scrubs a credential a hostile API echoes before the answer enters the sandbox', async () => {
    const authToken = 'echoed-token-0123456789';
    const echoing = await connect({
      codeMode: true,
      services: ['store'],
      store: {
        baseUrl: 'https://store.example/v1',
        login: 'a-login',
        authToken,
        fetch: jsonFetch([{ product: { id: 1, name: `token ${authToken}` } }]),
      },
    });
    try {
      // Reversed in the sandbox, the token would pass a scrub of the output: it must not get in at all.
      const { text } = await execute(
        "return (await store.listProducts({}))[0].product.name.split('').reverse().join('');",
        echoing,
      );
      expect(text).not.toContain([...authToken].reverse().join(''));
      expect(text.toLowerCase()).toContain([...'[redacted]'].reverse().join(''));
    } finally {
      await echoing.close();
    }
  });

  it('answers only what the script returned, with its console output beside it when there is some', async () => {
    const plain = await execute('return (await store.listProducts({ limit: 2 })).map((entry) => entry.product.id);');
    expect(plain.text).toMatch(/^\{"data":\[\d+,\d+\]\}$/);
    const logged = await execute("console.log('two', 2); return { n: 1 };");
    expect(logged.answer).toEqual({ data: { result: { n: 1 }, logs: ['two 2'] } });
  });

  it('a failed script is a tool error with its console output', async () => {
    const { result, text } = await execute("console.log('step 1'); throw new Error('boom');");
    expect(result.isError).toBe(true);
    expect(text).toBe('The script failed after 0 API call(s): Error: boom\nconsole:\nstep 1');
  });
});

describe('five tasks in code mode give the answers direct tools give', () => {
  const directCall: DirectCall = async (name, args) => {
    const result = await call(direct, name, args);
    if (result.isError) throw new Error(`${name}: ${textOf(result)}`);
    return (result.structuredContent as { data: unknown }).data;
  };

  it.each(CODE_TASKS.map((task) => [task.name, task] as const))('%s', async (_name, task) => {
    const described = await call(code, 'describe_operations', { query: task.describe, limit: task.uses.length });
    const declarations = (described.structuredContent as { data: string }).data;
    for (const used of task.uses) {
      const [service, id] = used.split('.');
      expect(declarations).toMatch(new RegExp(`declare const ${service}: \\{\\n[^]*?^${id}\\(`, 'm'));
    }
    const { text, answer } = await execute(task.code);
    const result = (answer as { data: unknown[] } | undefined)?.data;
    expect(result, text).toEqual(await task.direct(directCall));
    expect(result?.length).toBeGreaterThan(0);
  });
});
