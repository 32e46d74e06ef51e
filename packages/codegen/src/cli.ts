#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { isServiceName, SERVICE_NAMES } from '@agent-apis/specs/services';
import { generate } from './generate.ts';
import { manifestFile, writeManifest } from './manifest/index.ts';

const USAGE = `usage: agent-apis-codegen generate <service> [--spec <final.openapi.json>] [--out <dir>]
       agent-apis-codegen manifest <service> [--spec <final.openapi.json>]
  Generates packages/<service>/src/gen from specs/dist/<service>.openapi.json (written by \`pnpm specs:sync\`):
  hey-api's operation types (types.gen.ts), orval zod schemas (zod/), orval MSW handlers and faker factories (msw/),
  operations.gen.ts (the operation table), api.gen.ts (one function per operation) and validators.gen.ts, and
  packages/<service>/api.md (the API reference). AGENT_APIS_SPECS_DIST=<folder> reads the final documents from
  another folder.
  manifest writes packages/codegen/manifests/<service>.json, every operation's facts (read by the contract suite,
  the stand-ins and the tool server through @agent-apis/codegen/manifest). services: ${SERVICE_NAMES.join(', ')}`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { spec: { type: 'string' }, out: { type: 'string' } },
  });
  const [command, service, ...rest] = positionals;
  if ((command !== 'generate' && command !== 'manifest') || !service || !isServiceName(service) || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  if (command === 'manifest') {
    const manifest = await writeManifest(service, values.spec);
    console.log(`${service}: ${manifest.operations.length} operations in ${manifestFile(service)}`);
    return 0;
  }
  const started = performance.now();
  const result = await generate({ service, specFile: values.spec, outDir: values.out });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${service}: ${result.operations} operations, ${result.files} files (${(result.bytes / 1024).toFixed(0)} KiB) in ${result.outDir} [${seconds}s]`,
  );
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`agent-apis-codegen: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
