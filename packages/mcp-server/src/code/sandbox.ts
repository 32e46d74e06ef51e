/**
 * One script run in QuickJS compiled to WebAssembly (`quickjs-emscripten-core` with the release, synchronous
 * build; the .wasm ships in the npm package). Each run gets a fresh runtime: its own heap under a memory limit, an
 * interrupt handler that ends it at the deadline, and no host object but the API namespaces the caller names and a
 * `console` whose lines are capped. Values cross the boundary only as JSON text, so nothing the script does to its
 * own prototypes reaches the host. An API call returns a promise inside the sandbox; the host settles it when the
 * call ends, then runs the sandbox's pending jobs.
 */
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';

export interface SandboxLimits {
  /** Wall time of the whole run, API calls included (default 30 s). */
  timeMs: number;
  /**
   * Time the script itself may run, API calls not counted (default 2 s). The sandbox runs on the server's thread,
   * so this bounds how long a busy script holds every other session up.
   */
  cpuMs: number;
  /** Memory of the sandbox, at least 16 MiB (default 32 MiB). */
  memoryBytes: number;
  /** API calls one run may make (default 50). */
  maxCalls: number;
  /** Bytes of `console` output kept (default 16 KiB); the rest is dropped with a note. */
  maxLogBytes: number;
  /** Bytes of the result's JSON (default 1 MB); a larger result fails, asking for less. */
  maxResultBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeMs: 30_000,
  cpuMs: 2_000,
  memoryBytes: 32 * 1024 * 1024,
  maxCalls: 50,
  maxLogBytes: 16 * 1024,
  maxResultBytes: 1_000_000,
};

/**
 * The sandbox's stack: QuickJS's frames run on the host's native stack, so this must stop deep recursion well before
 * the host's own stack runs out (512 KiB did not, and left the instance broken).
 */
const MAX_STACK_BYTES = 128 * 1024;
/** Longest JSON text of one call's arguments taken from the sandbox. */
const MAX_ARGUMENT_BYTES = 256 * 1024;
/** Longest error message taken from the sandbox. */
const MAX_ERROR_CHARS = 2_000;

/** Sends one API call for the sandbox: resolves to the JSON text of `{ data }`, rejects with a message for the script. */
export type SandboxCall = (
  service: string,
  operationId: string,
  argsJson: string,
  signal: AbortSignal,
) => Promise<string>;

export interface SandboxRun {
  code: string;
  /** Namespaces and their method names (`{ store: ['listProducts', …] }`). */
  namespaces: Readonly<Record<string, readonly string[]>>;
  call: SandboxCall;
  limits: SandboxLimits;
  signal?: AbortSignal | undefined;
}

export type SandboxOutcome =
  | { ok: true; resultJson: string; logs: string[]; calls: number }
  | { ok: false; error: string; logs: string[]; calls: number };

/** The WebAssembly page size; the sandbox's memory is a whole number of pages. */
const PAGE_BYTES = 64 * 1024;
/** The smallest memory the QuickJS build starts with (its `INITIAL_MEMORY`, 16 MiB). */
const MIN_MEMORY_BYTES = 16 * 1024 * 1024;

interface Engine {
  core: typeof import('quickjs-emscripten-core');
  variant: QuickJSSyncVariant;
  wasm: WebAssembly.Module;
}

let enginePromise: Promise<Engine> | undefined;

/** QuickJS's code and compiled WebAssembly, loaded once at the first run (a server without code mode never loads it). */
function engine(): Promise<Engine> {
  enginePromise ??= (async () => {
    const [core, variant, { readFile }] = await Promise.all([
      import('quickjs-emscripten-core'),
      import('@jitl/quickjs-wasmfile-release-sync'),
      import('node:fs/promises'),
    ]);
    const wasm = await WebAssembly.compile(
      await readFile(new URL(import.meta.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))),
    );
    // The package's types are its CommonJS ones; under `import` its default export is the variant itself.
    return { core, variant: variant.default as unknown as Engine['variant'], wasm };
  })();
  // A failed load is tried again at the next run.
  enginePromise.catch(() => {
    enginePromise = undefined;
  });
  return enginePromise;
}

/**
 * A QuickJS instance of its own for one run, in a memory that cannot grow past `memoryBytes`. QuickJS's own memory
 * limit does not hold in this build (it counts allocations, not bytes, where `malloc_usable_size` is missing, as under
 * Emscripten), so the bound is the WebAssembly memory itself: past it an allocation fails and the script gets
 * QuickJS's "out of memory" error.
 */
async function instance(memoryBytes: number): Promise<QuickJSWASMModule> {
  const { core, variant, wasm } = await engine();
  const pages = Math.max(MIN_MEMORY_BYTES, memoryBytes) / PAGE_BYTES;
  const wasmMemory = new WebAssembly.Memory({ initial: MIN_MEMORY_BYTES / PAGE_BYTES, maximum: Math.ceil(pages) });
  return core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmModule: wasm, wasmMemory }));
}

/**
 * Runs in the sandbox before the script: takes the two host functions off the global object into a closure, builds
 * the frozen namespaces, and returns what the host calls later (`settle`, `encode`), captured before the script can
 * replace `JSON`.
 */
const PRELUDE = `(() => {
  const host = globalThis.__host, write = globalThis.__log;
  delete globalThis.__host; delete globalThis.__log;
  const parse = JSON.parse, stringify = JSON.stringify, pending = new Map();
  const AsyncFunction = (async () => {}).constructor;
  for (const [service, ids] of Object.entries(parse(globalThis.__namespaces))) {
    const namespace = Object.create(null);
    for (const id of ids) {
      namespace[id] = (args) => new Promise((resolve, reject) => {
        const ticket = host(service, id, args === undefined ? '{}' : stringify(args));
        pending.set(ticket, { resolve, reject });
      });
    }
    globalThis[service] = Object.freeze(namespace);
  }
  delete globalThis.__namespaces;
  const show = (value) => typeof value === 'string' ? value : stringify(value);
  const log = (...values) => { write(values.map(show).join(' ')); };
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log });
  return {
    settle(ticket, ok, text) {
      const waiting = pending.get(ticket);
      pending.delete(ticket);
      if (ok) waiting.resolve(parse(text).data); else waiting.reject(new Error(text));
    },
    start(code) { return new AsyncFunction(code)(); },
    encode(value) { const text = stringify(value); return text === undefined ? 'null' : text; },
  };
})()`;

/** `name: message` of a thrown value the sandbox handed over (dumped to plain data), capped. */
function errorText(dumped: unknown): string {
  if (dumped instanceof RunFailure) return dumped.message;
  let text: string;
  if (dumped && typeof dumped === 'object' && 'message' in dumped) {
    const { name, message } = dumped as { name?: unknown; message?: unknown };
    text = `${typeof name === 'string' ? name : 'Error'}: ${String(message)}`;
  } else {
    text = `Thrown: ${typeof dumped === 'string' ? dumped : JSON.stringify(dumped)}`;
  }
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}

class RunFailure extends Error {}

/** The handle's value as plain data (disposing it); a value that cannot be dumped (out of memory) says so. */
function take(context: QuickJSContext, handle: QuickJSHandle): unknown {
  try {
    return context.dump(handle);
  } catch {
    return new RunFailure('Error: (the thrown value could not be read)');
  } finally {
    handle.dispose();
  }
}

/** Runs `run.code` as the body of an async function; never throws. */
export async function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  const { limits } = run;
  const module = await instance(limits.memoryBytes);
  const deadline = Date.now() + limits.timeMs;
  const abort = new AbortController();
  const onAbort = () => abort.abort(run.signal?.reason);
  run.signal?.addEventListener('abort', onAbort, { once: true });
  const logs: string[] = [];
  let logBytes = 0;
  let calls = 0;
  let inFlight = 0;
  const settled: { ticket: number; ok: boolean; text: string }[] = [];
  let wake: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const runtime: QuickJSRuntime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  // Time spent running the script so far, and when the current slice began (a slice: one entry into the VM).
  let cpuUsed = 0;
  let sliceStart = 0;
  const overCpu = () => cpuUsed + (Date.now() - sliceStart) > limits.cpuMs;
  runtime.setInterruptHandler(() => Date.now() > deadline || overCpu() || abort.signal.aborted);
  /** Runs `enter` (one entry into the VM), counting its time against `cpuMs`. */
  const slice = <T>(enter: () => T): T => {
    sliceStart = Date.now();
    try {
      return enter();
    } finally {
      cpuUsed += Date.now() - sliceStart;
      sliceStart = Date.now();
    }
  };
  const context: QuickJSContext = runtime.newContext();
  const handles: QuickJSHandle[] = [];
  const hold = (handle: QuickJSHandle) => {
    handles.push(handle);
    return handle;
  };

  /** The value of `result`, or a {@link RunFailure} with the sandbox's error (disposed either way). */
  const unwrap = (result: ReturnType<QuickJSContext['evalCode']>): QuickJSHandle => {
    if ('error' in result && result.error) {
      const dumped = take(context, result.error);
      throw new RunFailure(ended() ?? errorText(dumped));
    }
    return hold((result as { value: QuickJSHandle }).value);
  };

  const ended = () => {
    if (abort.signal.aborted) {
      return run.signal?.aborted ? 'the request was cancelled' : `the time limit of ${limits.timeMs} ms was reached`;
    }
    if (Date.now() > deadline) return `the time limit of ${limits.timeMs} ms was reached`;
    return cpuUsed > limits.cpuMs
      ? `the CPU time limit of ${limits.cpuMs} ms was reached (API calls not counted)`
      : undefined;
  };

  try {
    const host = context.newFunction('__host', (serviceHandle, idHandle, argsHandle) => {
      const service = context.getString(serviceHandle);
      const id = context.getString(idHandle);
      const argsJson = context.typeof(argsHandle) === 'string' ? context.getString(argsHandle) : undefined;
      if (argsJson === undefined) throw new TypeError(`${service}.${id}: the arguments must be a JSON object`);
      if (argsJson.length > MAX_ARGUMENT_BYTES) {
        throw new RangeError(`${service}.${id}: the arguments are over ${MAX_ARGUMENT_BYTES} bytes`);
      }
      if (calls >= limits.maxCalls) {
        throw new RangeError(`the limit of ${limits.maxCalls} API calls per run was reached; do more per call`);
      }
      calls += 1;
      const ticket = calls;
      inFlight += 1;
      run
        .call(service, id, argsJson, abort.signal)
        .then(
          (text) => settled.push({ ticket, ok: true, text }),
          (error: unknown) => settled.push({ ticket, ok: false, text: (error as Error)?.message ?? String(error) }),
        )
        .finally(() => {
          inFlight -= 1;
          wake?.();
        });
      return context.newNumber(ticket);
    });
    context.setProp(context.global, '__host', host);
    host.dispose();
    const log = context.newFunction('__log', (textHandle) => {
      const text = context.getString(textHandle);
      if (logBytes >= limits.maxLogBytes) return;
      const line =
        text.length + logBytes > limits.maxLogBytes ? `${text.slice(0, limits.maxLogBytes - logBytes)}…` : text;
      logBytes += line.length + 1;
      logs.push(line);
      if (logBytes >= limits.maxLogBytes) logs.push(`[console output over ${limits.maxLogBytes} bytes dropped]`);
    });
    context.setProp(context.global, '__log', log);
    log.dispose();
    const namespaces = context.newString(JSON.stringify(run.namespaces));
    context.setProp(context.global, '__namespaces', namespaces);
    namespaces.dispose();

    const bridge = unwrap(slice(() => context.evalCode(PRELUDE, 'prelude.js')));
    const settle = hold(context.getProp(bridge, 'settle'));
    const encode = hold(context.getProp(bridge, 'encode'));
    const start = hold(context.getProp(bridge, 'start'));
    const code = hold(context.newString(run.code));
    const promise = unwrap(slice(() => context.callFunction(start, context.undefined, code)));

    for (;;) {
      const jobs = slice(() => runtime.executePendingJobs());
      if ('error' in jobs && jobs.error) {
        const dumped = take(context, jobs.error);
        throw new RunFailure(ended() ?? errorText(dumped));
      }
      const why = ended();
      if (why) throw new RunFailure(why);
      const state = context.getPromiseState(promise);
      if (state.type === 'fulfilled') {
        const value = hold(state.value);
        const text = unwrap(slice(() => context.callFunction(encode, context.undefined, value)));
        const resultJson = context.getString(text);
        if (resultJson.length > limits.maxResultBytes) {
          throw new RunFailure(
            `the result is ${resultJson.length} bytes of JSON, over the ${limits.maxResultBytes}-byte cap: return less (pick fields, slice lists)`,
          );
        }
        return { ok: true, resultJson, logs, calls };
      }
      if (state.type === 'rejected') {
        const dumped = take(context, state.error);
        throw new RunFailure(ended() ?? errorText(dumped));
      }
      if (settled.length === 0 && inFlight === 0) {
        throw new RunFailure(
          'the script is waiting for a promise that nothing will settle (no API call is in flight): await only API calls and promises built on them',
        );
      }
      if (settled.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
          abort.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        wake = undefined;
        clearTimeout(timer);
      }
      for (const { ticket, ok, text } of settled.splice(0)) {
        const args = [context.newNumber(ticket), ok ? context.true : context.false, context.newString(text)];
        const result = slice(() => context.callFunction(settle, context.undefined, ...args));
        args[0]?.dispose();
        args[2]?.dispose();
        const value = unwrap(result);
        void value;
      }
    }
  } catch (error) {
    const message = error instanceof RunFailure ? error.message : `the sandbox failed: ${(error as Error).message}`;
    return { ok: false, error: message, logs, calls };
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
    // Calls still in flight are cancelled; their answers are dropped.
    abort.abort(new Error('the run ended'));
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
    try {
      context.dispose();
      runtime.dispose();
    } catch {
      // The instance is this run's alone and is dropped with it.
    }
  }
}
