import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SpecLock } from './lock.ts';

/** A problem getting or trusting an upstream document. The message is meant for a person at a terminal. */
export class SpecSourceError extends Error {
  override name = 'SpecSourceError';
}

/** The pinned bytes and the bytes we got differ. */
export class SpecHashMismatchError extends SpecSourceError {
  override name = 'SpecHashMismatchError';
  readonly service: string;
  readonly expected: string;
  readonly actual: string;
  readonly origin: string;
  constructor(service: string, expected: string, actual: string, origin: string) {
    super(
      [
        `${service}: the upstream document does not match its pin.`,
        `  expected sha256 ${expected}`,
        `  actual   sha256 ${actual}`,
        `  read from       ${origin}`,
        `If this change is intended, accept it with: pnpm specs:update ${service}`,
      ].join('\n'),
    );
    this.service = service;
    this.expected = expected;
    this.actual = actual;
    this.origin = origin;
  }
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface SourceOptions {
  /** Folder holding `<service>/openapi.json` copies of the upstream documents (offline sync). */
  mirror?: string | undefined;
  /** Environment used to fill `{NAME}` placeholders in the lock's source URL. */
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface FetchedDocument {
  bytes: Uint8Array;
  sha256: string;
  /** A path or URL, for messages. */
  origin: string;
}

/** Fills `{NAME}` placeholders from the environment, or explains which variable is missing. */
export function resolveSourceUrl(lock: SpecLock, env: Record<string, string | undefined>): string {
  return lock.source.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (!value) {
      throw new SpecSourceError(
        `${lock.service}: the source URL ${lock.source} needs ${name}, which is not set. ` +
          `Set ${name}, or set SPECS_MIRROR to a folder holding ${lock.service}/openapi.json.`,
      );
    }
    return value.replace(/\/+$/, '');
  });
}

/** Reads the current upstream bytes from the mirror folder when one is given, else from the network. */
export async function readUpstream(lock: SpecLock, options: SourceOptions = {}): Promise<FetchedDocument> {
  if (options.mirror) {
    const file = resolve(join(options.mirror, lock.service, 'openapi.json'));
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      throw new SpecSourceError(
        `${lock.service}: cannot read the mirrored document ${file} (${code ?? String(cause)}). ` +
          `SPECS_MIRROR=${options.mirror} must hold ${lock.service}/openapi.json.`,
        { cause },
      );
    }
    return { bytes, sha256: sha256(bytes), origin: file };
  }
  const url = resolveSourceUrl(lock, options.env ?? process.env);
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
  } catch (cause) {
    throw new SpecSourceError(
      `${lock.service}: cannot reach ${url} (${(cause as Error).message}). ` +
        'Offline? Set SPECS_MIRROR to a folder holding <service>/openapi.json.',
      { cause },
    );
  }
  if (!response.ok) {
    throw new SpecSourceError(`${lock.service}: ${url} answered HTTP ${response.status} ${response.statusText}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, sha256: sha256(bytes), origin: url };
}

/** Reads the upstream document and refuses it unless its sha256 is the pinned one. */
export async function readPinned(lock: SpecLock, options: SourceOptions = {}): Promise<FetchedDocument> {
  const document = await readUpstream(lock, options);
  if (document.sha256 !== lock.sha256) {
    throw new SpecHashMismatchError(lock.service, lock.sha256, document.sha256, document.origin);
  }
  return document;
}
