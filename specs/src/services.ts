import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The three services agent-apis ships clients for. */
export const SERVICE_NAMES = ['directory', 'store', 'trust'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * A service whose OpenAPI document is published upstream: we pin it (lock.json), sync it, and repair or
 * name things through a committed overlay. A hand-written service has its document in this folder.
 */
export type ServiceKind = 'fetched' | 'handwritten';

export const SERVICE_KINDS: Record<ServiceName, ServiceKind> = {
  directory: 'fetched',
  store: 'fetched',
  trust: 'handwritten',
};

/** The `specs/` folder of this checkout (tests may point the pipeline at a copy). */
export const DEFAULT_SPECS_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The repository root; a relative SPECS_MIRROR is resolved against it, whatever the working directory. */
export const REPO_ROOT = resolve(DEFAULT_SPECS_ROOT, '..');

/** The mirror folder named by SPECS_MIRROR, as an absolute path, or undefined to use the network. */
export function mirrorFromEnv(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.SPECS_MIRROR ? resolve(REPO_ROOT, env.SPECS_MIRROR) : undefined;
}

export interface SpecPaths {
  lock: string;
  overlay: string;
  /** Safety classes and input sources for the live contract suite, applied after `overlay` (fetched services). */
  contractOverlay: string;
  /** Hand-written document (trust only). */
  document: string;
  /** Generator-ready output, gitignored. */
  final: string;
  /** Local cache of verified upstream bytes, keyed by sha256, gitignored. */
  cacheDir: string;
}

export function specPaths(service: ServiceName, root: string = DEFAULT_SPECS_ROOT): SpecPaths {
  return {
    lock: join(root, service, 'lock.json'),
    overlay: join(root, service, 'overlay.yaml'),
    contractOverlay: join(root, service, 'contract.overlay.yaml'),
    document: join(root, service, 'openapi.yaml'),
    final: join(root, 'dist', `${service}.openapi.json`),
    cacheDir: join(root, '.cache', service),
  };
}

export function isServiceName(value: string): value is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(value);
}
