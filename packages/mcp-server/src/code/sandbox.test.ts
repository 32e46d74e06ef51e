/**
 * The sandbox against hostile scripts (the table in the README's "Code mode" section): each is stopped by the limit
 * or the boundary named in the test, and the host stays as it was.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SANDBOX_LIMITS,
  runInSandbox,
  type SandboxCall,
  type SandboxLimits,
  type SandboxOutcome,
} from './sandbox.js';

/** Answers every call with what it was asked, as `{ data }` JSON. */
const echo: SandboxCall = async (service, id, argsJson) =>
  JSON.stringify({ data: { service, id, args: JSON.parse(argsJson) as unknown } });

function run(
  code: string,
  options: { call?: SandboxCall; limits?: Partial<SandboxLimits>; signal?: AbortSignal } = {},
) {
  return runInSandbox({
    code,
    namespaces: { store: ['listProducts', 'getProduct'], trust: ['decide'] },
    call: options.call ?? echo,
    // Generous CPU time unless a test is about it: a loaded machine must not fail the others.
    limits: { ...DEFAULT_SANDBOX_LIMITS, timeMs: 20_000, cpuMs: 10_000, ...options.limits },
    signal: options.signal,
  });
}

function failed(outcome: SandboxOutcome): string {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(false);
  return outcome.ok ? '' : outcome.error;
}

function result(outcome: SandboxOutcome): unknown {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return outcome.ok ? JSON.parse(outcome.resultJson) : undefined;
}

describe('a script in the sandbox', () => {
  it('awaits API calls, in parallel too, each answer going back to its own caller', async () => {
    // Answers come back in the reverse order of the calls.
    const slow: SandboxCall = async (_service, id, argsJson) => {
      const { n } = JSON.parse(argsJson) as { n: number };
      await new Promise((resolve) => setTimeout(resolve, (4 - n) * 20));
      return JSON.stringify({ data: { id, n } });
    };
    const outcome = await run(
      'const all = await Promise.all([1, 2, 3].map((n) => store.getProduct({ n }))); const last = await trust.decide({ n: 9 }); return [...all.map((a) => a.n), last.id];',
      { call: slow },
    );
    expect(result(outcome)).toEqual([1, 2, 3, 'decide']);
    expect(outcome.calls).toBe(4);
  });

  it('hands the host only JSON text of the arguments, and the script a rejection it can catch', async () => {
    const asked: string[] = [];
    const refusing: SandboxCall = async (_service, id, argsJson) => {
      asked.push(argsJson);
      throw new Error(`Refused: ${id}`);
    };
    const outcome = await run(
      'const args = { get limit() { return 5; }, skip: undefined, f() {} }; try { await store.listProducts(args); } catch (e) { return e.message; }',
      { call: refusing },
    );
    expect(result(outcome)).toBe('Refused: listProducts');
    expect(asked).toEqual(['{"limit":5}']);
  });

  it('returns console output, capped', async () => {
    const outcome = await run('for (let i = 0; i < 1000; i++) console.log("line", i, { i }); return 1;', {
      limits: { maxLogBytes: 200 },
    });
    expect(result(outcome)).toBe(1);
    expect(outcome.logs[0]).toBe('line 0 {"i":0}');
    expect(outcome.logs.join('\n').length).toBeLessThan(300);
    expect(outcome.logs.at(-1)).toMatch(/over 200 bytes dropped/);
  });
});

describe('hostile scripts are contained', () => {
  it('an endless loop is interrupted at its CPU time limit, well before the wall time limit', async () => {
    expect(failed(await run('while (true) {}', { limits: { cpuMs: 200, timeMs: 60_000 } }))).toMatch(
      /CPU time limit of 200 ms/,
    );
  });

  it('an endless loop after an API call, and one that catches the interruption, end too', async () => {
    const code = 'await store.listProducts({}); for (;;) { try { while (true) {} } catch {} }';
    expect(failed(await run(code, { limits: { cpuMs: 200 } }))).toMatch(/CPU time limit of 200 ms/);
  });

  it.each([
    ['strings', 'const hoard = []; for (;;) hoard.push("x".repeat(1 << 20) + hoard.length);'],
    ['arrays', 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(hoard.length));'],
    ['one string doubling', 'let s = "x"; for (;;) s += s;'],
  ])('a memory bomb of %s hits the memory limit', async (_kind, code) => {
    expect(
      failed(await run(code, { limits: { memoryBytes: 24 * 1024 * 1024, cpuMs: 20_000, timeMs: 30_000 } })),
    ).toMatch(/out of memory|string too long/);
  });

  it('endless recursion hits the stack limit', async () => {
    expect(failed(await run('const f = (n) => f(n + 1) + 1; return f(0);'))).toMatch(/stack overflow/i);
    // The host is unharmed: the next run works.
    expect(result(await run('return 2;'))).toBe(2);
  });

  it('prototype pollution stays inside the run: the host and the next run see clean built-ins', async () => {
    const polluted = await run(
      'Object.prototype.polluted = "yes"; Array.prototype.push = null; JSON.parse = () => "forged"; JSON.stringify = () => "forged"; const p = await store.getProduct({ id: 1 }); return { id: p.id, probe: ({}).polluted };',
    );
    // The namespaces and the result use the JSON functions captured before the script ran.
    expect(result(polluted)).toEqual({ id: 'getProduct', probe: 'yes' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof [].push).toBe('function');
    expect(
      result(await run('return [({}).polluted ?? null, typeof Array.prototype.push, JSON.stringify({ a: 1 })];')),
    ).toEqual([null, 'function', '{"a":1}']);
  });

  it('the namespaces are frozen, and the bridge to the host is out of reach', async () => {
    const outcome = await run(`
      const mine = () => 'mine';
      try { store.listProducts = mine; } catch {}
      const replaced = store.listProducts === mine;
      return [Object.isFrozen(store), typeof store.listProducts({}).then, replaced,
        typeof globalThis.__host, typeof globalThis.__log, typeof globalThis.__namespaces, typeof execute];`);
    expect(result(outcome)).toEqual([true, 'function', false, 'undefined', 'undefined', 'undefined', 'undefined']);
  });

  it('host objects are absent: no process, require, fetch, timers or modules', async () => {
    const outcome = await run(`
      const kinds = [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval,
        typeof queueMicrotask === 'function' ? 'function' : 'undefined', typeof WebAssembly, typeof XMLHttpRequest,
        typeof Function('return this')().process];
      let imported;
      try { await import('node:fs'); imported = 'loaded'; } catch (e) { imported = 'refused'; }
      return [...kinds, imported];`);
    expect(result(outcome)).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'refused',
    ]);
  });

  it('a promise nothing will settle ends the run for that reason, not at the deadline', async () => {
    const error = failed(await run('await new Promise(() => {}); return 1;', { limits: { timeMs: 600_000 } }));
    expect(error).toMatch(/nothing will settle/);
  });

  it('an API call that never answers is cancelled at the deadline', async () => {
    const { hanging, cancelled } = hangingCall();
    expect(
      failed(await run('return await store.listProducts({});', { call: hanging, limits: { timeMs: 200 } })),
    ).toMatch(/time limit of 200 ms/);
    expect(cancelled()).toBe(true);
  });

  it('runs at the same time keep apart: one cannot see or settle the other', async () => {
    let release: (() => void) | undefined;
    const gated: SandboxCall = (service, id) =>
      new Promise((resolve) => {
        release = () => resolve(JSON.stringify({ data: { service, id } }));
      });
    const first = run(
      'globalThis.secret = 42; const answer = await store.listProducts({}); return [answer.id, globalThis.secret];',
      {
        call: gated,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await run('return [typeof globalThis.secret, typeof store];');
    expect(result(second)).toEqual(['undefined', 'object']);
    release?.();
    expect(result(await first)).toEqual(['listProducts', 42]);
  });

  it('calls made from inside another call’s callback are awaited, within the call limit', async () => {
    const nested = await run(
      'return await store.listProducts({}).then((a) => store.getProduct({ from: a.id }).then((b) => trust.decide({ from: b.id })));',
    );
    expect(result(nested)).toEqual({ service: 'trust', id: 'decide', args: { from: 'getProduct' } });
    const tooMany = await run('for (let i = 0; i < 10; i++) await store.getProduct({ i }); return "all";', {
      limits: { maxCalls: 3 },
    });
    expect(failed(tooMany)).toMatch(/limit of 3 API calls/);
    expect(tooMany.calls).toBe(3);
  });

  it('a huge result is refused with the size, asking for less', async () => {
    expect(failed(await run('return "x".repeat(2_000_000);'))).toMatch(
      /2000002 bytes of JSON, over the 1000000-byte cap/,
    );
  });

  it('a cancelled request ends the run and cancels its calls', async () => {
    const controller = new AbortController();
    const { hanging, cancelled } = hangingCall();
    const running = run('return await store.listProducts({});', {
      call: hanging,
      signal: controller.signal,
      limits: { timeMs: 60_000 },
    });
    setTimeout(() => controller.abort(), 50);
    expect(failed(await running)).toMatch(/cancelled/);
    expect(cancelled()).toBe(true);
  });
});

/** An API call that answers only when its signal aborts; `cancelled()` says whether it did. */
function hangingCall(): { hanging: SandboxCall; cancelled: () => boolean } {
  let aborted = false;
  const hanging: SandboxCall = (_service, _id, _args, signal) =>
    new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => {
        aborted = true;
        reject(new Error('aborted'));
      });
    });
  return { hanging, cancelled: () => aborted };
}
