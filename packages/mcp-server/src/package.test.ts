/** What package.json promises users: an `engines` floor no lower than that of any package the server depends on. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

interface Manifest {
  engines?: { node?: string };
  dependencies?: Record<string, string>;
}

const require = createRequire(import.meta.url);

/** `>=22.12` → [22, 12, 0]; a floor written any other way fails the test. */
function floor(range: string | undefined, of: string): number[] {
  const found = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range ?? '');
  if (!found) throw new Error(`${of}: engines.node ${JSON.stringify(range)} is not a ">=x.y.z" floor`);
  return [Number(found[1]), Number(found[2] ?? 0), Number(found[3] ?? 0)];
}

function compare(a: number[], b: number[]): number {
  return (a[0]! - b[0]!) * 1e6 + (a[1]! - b[1]!) * 1e3 + (a[2]! - b[2]!);
}

describe('package.json', () => {
  it('declares a Node floor no lower than its workspace dependencies’', async () => {
    const own = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;
    const ownFloor = floor(own.engines?.node, '@agent-apis/mcp-server');
    const names = Object.keys(own.dependencies ?? {}).filter((name) => name.startsWith('@agent-apis/'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const manifest = require(`${name}/package.json`) as Manifest;
      const theirs = floor(manifest.engines?.node, name);
      expect(compare(ownFloor, theirs), `${name} needs Node ${theirs.join('.')}`).toBeGreaterThanOrEqual(0);
    }
  });
});
