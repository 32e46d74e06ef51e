/**
 * Run as `node harness.ts FILE...`: imports each file with the operations that a module must not
 * perform while it loads (timers, abort controllers, random values, fetch, environment reads) trapped, then prints
 * what was attempted as JSON. A trapped constructor or function throws, as Cloudflare Workers refuse them at global
 * scope; an environment read is recorded only. Node's own reads (the module loader's) are not counted.
 */

interface Attempt {
  /** What was attempted, e.g. `new AbortController()`. */
  operation: string;
  /** The first stack frame outside this file and outside Node itself. */
  frame: string;
}

const HARNESS = import.meta.filename;
const attempts: Attempt[] = [];
const failures: string[] = [];

/** The caller's frame, or undefined when Node itself made the call. */
function callerFrame(): string | undefined {
  const lines = (new Error().stack ?? '').split('\n').slice(1);
  const caller = lines.find((line) => !line.includes(HARNESS));
  if (!caller || caller.includes('node:')) return undefined;
  return caller.trim().replace(/^at /, '');
}

function record(operation: string): boolean {
  const frame = callerFrame();
  if (frame === undefined) return false;
  attempts.push({ operation, frame });
  return true;
}

const restores: (() => void)[] = [];

function trap(owner: object, name: string, operation: string): void {
  const holder = owner as Record<string, unknown>;
  const original = holder[name] as (...args: unknown[]) => unknown;
  const refuse = (): never => {
    throw new Error(`${operation} during import`);
  };
  holder[name] = new Proxy(original, {
    apply: (target, self, args) => (record(operation) ? refuse() : Reflect.apply(target, self, args)),
    construct: (target, args, newTarget) =>
      record(operation) ? refuse() : (Reflect.construct(target, args, newTarget) as object),
  });
  restores.push(() => {
    holder[name] = original;
  });
}

trap(globalThis, 'setTimeout', 'setTimeout()');
trap(globalThis, 'setInterval', 'setInterval()');
trap(globalThis, 'setImmediate', 'setImmediate()');
trap(globalThis, 'queueMicrotask', 'queueMicrotask()');
trap(globalThis, 'AbortController', 'new AbortController()');
trap(AbortSignal, 'timeout', 'AbortSignal.timeout()');
trap(AbortSignal, 'any', 'AbortSignal.any()');
trap(Math, 'random', 'Math.random()');
trap(crypto, 'getRandomValues', 'crypto.getRandomValues()');
trap(crypto, 'randomUUID', 'crypto.randomUUID()');
trap(globalThis, 'fetch', 'fetch()');

const environment = process.env;
Object.defineProperty(process, 'env', {
  configurable: true,
  get: () => {
    record('process.env');
    return environment;
  },
});

for (const file of process.argv.slice(2)) {
  try {
    await import(file);
  } catch (error) {
    failures.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

Object.defineProperty(process, 'env', { configurable: true, writable: true, value: environment });
for (const restore of restores) restore();
console.log(JSON.stringify({ attempts, failures }));
