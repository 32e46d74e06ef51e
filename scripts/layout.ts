/**
 * The layout policy of every published package's `dist`: what `scripts/build-package.ts` cannot read from the
 * import graph, stated once per package. The build holds each row to the package (its `exports` and `bin`, its
 * `import()`s): a row that names an entry or a seam the package does not have, or leaves one out, fails the build.
 *
 * Names are paths under `src/` without the extension, as the built files are named: the entry `call` is
 * `src/call.ts` → `dist/call.js`, the seam `internal/call/send-call` is `src/internal/call/send-call.ts`.
 */

/**
 * Who loads an entry, and so where its code goes.
 * - `root`: the package's face (`.`), which re-exports the others; it takes only what no other entry takes.
 * - `main`: the entry the sibling packages build on, loaded at import (core's `service`). Its file is the chunk the
 *   package's other chunks share (one copy of each class), and in the Node layout it takes every module it reaches.
 * - `import`: another entry loaded at import (the store's `webhooks`, the tool server's `cli`).
 * - `first-call`: loaded only once a call is under way, by the siblings' own seams (core's `call`): what it shares
 *   with the call path goes into one chunk the call path imports. An entry a sibling loads at import must not be
 *   one: it would load the call path at import (the bench's esbuild check of one operation at import catches it).
 * - `standalone`: generated schemas, validators, mock handlers: one module each, importing no chunk of the package
 *   but one another, and no Node-layout twin (no `node` condition), so no class is defined in both layouts.
 */
export type Audience = 'root' | 'main' | 'import' | 'first-call' | 'standalone';

/**
 * How a seam (the target of an `import()` of the package's own code) loads.
 * - `lazy`: with a first call or a first use; in the layout for bundlers a chunk of its own, in the Node layout
 *   inside the entry that reaches it (an `import()` of a loaded file costs Node less than another file).
 * - `call-path`: the lazy seam the first-call entries' code goes with (core's `send-call`): what it shares with them
 *   or with other seams is one chunk beside it, and so is a module under {@link SMALL_MODULE_CHARS} only they use.
 * - `optional`: loaded only when the caller asks for it (a Redis tier, schema validation): a chunk of its own in both
 *   layouts, so a process that never asks does not load what it imports.
 */
export type SeamLoad = 'lazy' | 'call-path' | 'optional';

export interface PackageLayout {
  /** Every entry of `exports` and `bin`, by who loads it. */
  entries: Readonly<Record<string, Audience>>;
  /** Every seam of the package, by how it loads. */
  seams: Readonly<Record<string, SeamLoad>>;
  /**
   * Whether the package ships the Node layout, `dist/node/` under each entry's `node` condition (all but the
   * `standalone` ones): Node, Bun and Deno load modules file by file and pay for each file, so there each entry takes
   * every module it reaches. Without it the clients' cold start measured 1.38 to 1.52× openapi-fetch's.
   */
  node: boolean;
}

/**
 * A module this small (source characters) that only code loaded after the first call uses goes into the call path's
 * chunk instead of a chunk of its own: Node spends about as long loading a module as pre-parsing some 20 kB.
 */
export const SMALL_MODULE_CHARS = 2_000;

const generated = {
  'gen/msw.gen': 'standalone',
  'gen/validators.gen': 'standalone',
} as const;

/** The policy, by package name. */
export const LAYOUTS: Readonly<Record<string, PackageLayout>> = {
  '@agent-apis/core': {
    entries: { index: 'root', service: 'main', call: 'first-call' },
    seams: {
      'internal/call/send-call': 'call-path',
      'internal/fleet/http-cache-engine': 'lazy',
      'internal/fleet/http-cache-redis': 'optional',
      'internal/call/schema-validation': 'optional',
    },
    node: true,
  },
  '@agent-apis/directory': {
    entries: { index: 'root', 'gen/zod/directory.zod.gen': 'standalone', ...generated },
    seams: { cache: 'optional' },
    node: true,
  },
  '@agent-apis/store': {
    entries: { index: 'root', webhooks: 'import', 'gen/zod/store.zod.gen': 'standalone', ...generated },
    seams: { 'rate-limit': 'lazy', 'rate-limit-fleet': 'optional' },
    node: true,
  },
  '@agent-apis/trust': {
    entries: { index: 'root', 'gen/zod/trust.zod.gen': 'standalone', ...generated },
    seams: { 'decide-timeout': 'lazy', 'decision-cache-redis': 'optional' },
    node: true,
  },
  '@agent-apis/mcp': { entries: { index: 'root' }, seams: {}, node: false },
  '@agent-apis/mcp-server': { entries: { index: 'root', cli: 'import' }, seams: {}, node: false },
};
