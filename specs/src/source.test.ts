import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readLock } from './lock.ts';
import { specPaths } from './services.ts';
import { readPinned, readUpstream, SpecHashMismatchError, SpecSourceError, sha256 } from './source.ts';
import { MIRROR, scratchMirror } from './test-support.ts';

const storeLock = await readLock(specPaths('store').lock);
const directoryLock = await readLock(specPaths('directory').lock);

describe('readPinned', () => {
  it('accepts the mirrored bytes whose sha256 is pinned', async () => {
    const document = await readPinned(storeLock, { mirror: MIRROR });
    expect(document.sha256).toBe(storeLock.sha256);
    expect(sha256(await readFile(join(MIRROR, 'store', 'openapi.json')))).toBe(document.sha256);
  });

  it('refuses a mirror file with one byte changed, naming service, both hashes and the accepting command', async () => {
    const mirror = await scratchMirror({
      store: (bytes) => {
        const changed = Buffer.from(bytes);
        changed[100] = changed[100] === 0x41 ? 0x42 : 0x41;
        return changed;
      },
    });
    const error = await readPinned(storeLock, { mirror }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecHashMismatchError);
    const message = (error as Error).message;
    const actual = sha256(await readFile(join(mirror, 'store', 'openapi.json')));
    expect(actual).not.toBe(storeLock.sha256);
    expect(message).toContain('store:');
    expect(message).toContain(`expected sha256 ${storeLock.sha256}`);
    expect(message).toContain(`actual   sha256 ${actual}`);
    expect(message).toContain('pnpm specs:update store');
  });

  it('explains a missing mirror file', async () => {
    const error = await readPinned(storeLock, { mirror: '/nonexistent/mirror' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecSourceError);
    expect((error as Error).message).toMatch(
      /store: cannot read the mirrored document \/nonexistent\/mirror\/store\/openapi\.json \(ENOENT\)/,
    );
  });

  it('explains an unreachable URL and suggests the mirror', async () => {
    const fetch = vi.fn().mockRejectedValue(new TypeError('fetch failed'));
    const error = await readPinned(storeLock, { fetch }).catch((e: unknown) => e);
    expect(fetch).toHaveBeenCalledWith(storeLock.source, expect.anything());
    expect((error as Error).message).toBe(
      `store: cannot reach ${storeLock.source} (fetch failed). Offline? Set SPECS_MIRROR to a folder holding <service>/openapi.json.`,
    );
  });

  it('reports an HTTP error status from the source', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response('gone', { status: 404, statusText: 'Not Found' }));
    await expect(readPinned(storeLock, { fetch })).rejects.toThrow(
      `store: ${storeLock.source} answered HTTP 404 Not Found`,
    );
  });

  it('fills the directory base URL from the environment, or says which variable is missing', async () => {
    await expect(readPinned(directoryLock, { env: {} })).rejects.toThrow(/needs DIRECTORY_BASE_URL, which is not set/);
    const bytes = await readFile(join(MIRROR, 'directory', 'openapi.json'));
    const fetch = vi.fn().mockResolvedValue(new Response(bytes));
    const document = await readPinned(directoryLock, { fetch, env: { DIRECTORY_BASE_URL: 'https://dir.test/' } });
    expect(fetch.mock.calls[0]?.[0]).toBe('https://dir.test/api/openapi.json');
    expect(document.sha256).toBe(directoryLock.sha256);
  });

  it('reads the pinned source for sync, and the tracked address for update and diff', async () => {
    expect(storeLock.track).toBeDefined();
    expect(storeLock.track).not.toBe(storeLock.source);
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('{}'));
    await readUpstream(storeLock, { fetch });
    await readUpstream(storeLock, { fetch, latest: true });
    expect(fetch.mock.calls.map((call) => call[0])).toEqual([storeLock.source, storeLock.track]);
  });
});
