import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Pin } from './lock.ts';

/** A problem getting or trusting an upstream document. The message is meant for a person at a terminal. */
export class SpecSourceError extends Error {
  override name = 'SpecSourceError';
}

/** How a refusal names what was pinned and the command that accepts a new pin. */
export interface PinnedSubject {
  /** e.g. `the upstream document`, `the tools/list result`. */
  what: string;
  /** e.g. `pnpm specs:update store`. */
  acceptCommand: string;
}

/** The pinned bytes and the bytes we got differ. */
export class SpecHashMismatchError extends SpecSourceError {
  override name = 'SpecHashMismatchError';
  readonly service: string;
  readonly expected: string;
  readonly actual: string;
  readonly origin: string;
  constructor(
    service: string,
    expected: string,
    actual: string,
    origin: string,
    subject: PinnedSubject = { what: 'the upstream document', acceptCommand: `pnpm specs:update ${service}` },
  ) {
    super(
      [
        `${service}: ${subject.what} does not match its pin.`,
        `  expected sha256 ${expected}`,
        `  actual   sha256 ${actual}`,
        `  read from       ${origin}`,
        `If this change is intended, accept it with: ${subject.acceptCommand}`,
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
  /** Read the newest version (the lock's `track` address) rather than the pinned `source`. */
  latest?: boolean;
}

export interface FetchedDocument {
  bytes: Uint8Array;
  sha256: string;
  /** A path or URL, for messages. */
  origin: string;
}

/** Fills `{NAME}` placeholders from the environment, or explains which variable is missing. */
export function resolveSourceUrl(
  lock: Pin,
  env: Record<string, string | undefined>,
  mirrorFile = 'openapi.json',
  url: string = lock.source,
): string {
  return url.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (!value) {
      throw new SpecSourceError(
        `${lock.service}: the source URL ${url} needs ${name}, which is not set. ` +
          `Set ${name}, or set SPECS_MIRROR to a folder holding ${lock.service}/${mirrorFile}.`,
      );
    }
    return value.replace(/\/+$/, '');
  });
}

/** Reads `<mirror>/<service>/<mirrorFile>`, or explains why it cannot. */
export async function readMirrored(service: string, mirror: string, mirrorFile: string): Promise<FetchedDocument> {
  const file = resolve(join(mirror, service, mirrorFile));
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new SpecSourceError(
      `${service}: cannot read the mirrored document ${file} (${code ?? String(cause)}). ` +
        `SPECS_MIRROR=${mirror} must hold ${service}/${mirrorFile}.`,
      { cause },
    );
  }
  return { bytes, sha256: sha256(bytes), origin: file };
}

/** Reads the current upstream bytes from the mirror folder when one is given, else from the network. */
export async function readUpstream(lock: Pin, options: SourceOptions = {}): Promise<FetchedDocument> {
  if (options.mirror) return readMirrored(lock.service, options.mirror, 'openapi.json');
  const url = resolveSourceUrl(
    lock,
    options.env ?? process.env,
    'openapi.json',
    options.latest ? (lock.track ?? lock.source) : lock.source,
  );
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
export async function readPinned(lock: Pin, options: SourceOptions = {}): Promise<FetchedDocument> {
  return verifyPin(lock, await readUpstream(lock, options));
}

/** Returns `document` if its sha256 is the pinned one, else throws {@link SpecHashMismatchError}. */
export function verifyPin(pin: Pin, document: FetchedDocument, subject?: PinnedSubject): FetchedDocument {
  if (document.sha256 !== pin.sha256) {
    throw new SpecHashMismatchError(pin.service, pin.sha256, document.sha256, document.origin, subject);
  }
  return document;
}
