/**
 * `@agent-apis/codegen/manifest`: the one typed loader of a service's manifest, the file
 * `agent-apis-codegen manifest <service>` writes (`packages/codegen/manifests/<service>.json`, gitignored) from the
 * final spec. Private consumers (the contract suite, the stand-ins, the tool server's generator) read operation
 * facts here, never from the spec's `x-` keys.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Manifest } from '@agent-apis/core/service';
import type { ServiceName } from '@agent-apis/specs/services';
import { readFinalSpec } from '../final-spec.ts';
import { describeManifest } from './read.ts';

export type {
  ErrorBodyShape,
  InputSource,
  Manifest,
  ManifestOperation,
  ManifestParameter,
  ResourceMethod,
  SafetyClass,
  SpecSchema,
} from '@agent-apis/core/service';
export { describeManifest } from './read.ts';

/**
 * Where the manifest of `service` is written: `packages/codegen/manifests/<service>.json`, or, when
 * AGENT_APIS_MANIFESTS names another folder, `<that folder>/<service>.json`.
 */
export function manifestFile(service: ServiceName, env: Record<string, string | undefined> = process.env): string {
  return join(env.AGENT_APIS_MANIFESTS ?? join(import.meta.dirname, '..', '..', 'manifests'), `${service}.json`);
}

/** Reads the final spec of `service` and writes its manifest; answers the manifest. */
export async function writeManifest(service: ServiceName, specFile?: string): Promise<Manifest> {
  const manifest = describeManifest(await readFinalSpec(service, specFile));
  const file = manifestFile(service);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(manifest)}\n`);
  return manifest;
}

/** The manifest of `service`, as last written. */
export function readManifest(service: ServiceName): Manifest {
  const file = manifestFile(service);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `${service}: no manifest at ${file}. Run \`pnpm build\` (or \`pnpm --filter @agent-apis/codegen run manifest:${service}\`) first.`,
    );
  }
  return JSON.parse(text) as Manifest;
}
