import { relative } from 'node:path';
import { runDrift } from './diff.ts';
import { driftExitCode, driftSummary } from './drift-report.ts';
import { driftFailed, runToolDrift } from './mcp-drift.ts';
import { isMcpService, syncToolLists } from './mcp-tools.ts';
import { type BuiltSpec, buildSpec, writeFinal } from './pipeline.ts';
import { table } from './report.ts';
import {
  DEFAULT_SPECS_ROOT,
  isServiceName,
  mirrorFromEnv,
  SERVICE_KINDS,
  SERVICE_NAMES,
  type ServiceName,
  specPaths,
} from './services.ts';
import { updateSpec } from './update.ts';
import { lintWithRedocly, validateDocument } from './validate.ts';

const USAGE = `usage: specs <command> [service ...]
  sync    verify each pinned upstream document (sha256), apply its overlay, check path templates and
          operationIds, write specs/dist/<service>.openapi.json, then lint and validate every final document;
          verify each agent tool server's pinned tools/list result and write specs/dist/<service>.mcp-tools.json
  update  fetch the current upstream document, say what changed, and pin it in specs/<service>/lock.json
  diff    compare each pinned upstream document with the current one, classify every change (breaking,
          addition, other), write specs/reports/drift.{json,md}; with --changeset also write a changeset per
          affected package; then the same for the services' agent tool servers (pinned tools/list against the
          current one, specs/reports/mcp-drift.{json,md}); exits 1 on a breaking change or when a document or a
          tool list cannot be read
services: ${SERVICE_NAMES.join(', ')} (default: all). Offline: set SPECS_MIRROR to a folder of <service>/openapi.json.`;

function parseServices(args: string[], only?: (s: ServiceName) => boolean): ServiceName[] {
  for (const arg of args) {
    if (!isServiceName(arg)) throw new UsageError(`unknown service "${arg}"`);
  }
  const chosen = args.length > 0 ? (args as ServiceName[]) : [...SERVICE_NAMES];
  return only ? chosen.filter(only) : chosen;
}

class UsageError extends Error {}

async function sync(services: ServiceName[]): Promise<boolean> {
  const mirror = mirrorFromEnv();
  const built: BuiltSpec[] = [];
  for (const service of services) {
    const spec = await buildSpec(service, { mirror });
    await writeFinal(spec);
    built.push(spec);
  }
  const toolLists = await syncToolLists(services, { mirror });
  const config = `${DEFAULT_SPECS_ROOT}redocly.yaml`;
  const checks = await Promise.all(
    built.map(async (spec) => {
      const file = specPaths(spec.service).final;
      const [lint, invalid] = await Promise.all([lintWithRedocly(file, config), validateDocument(spec.document)]);
      return { spec, lint, invalid };
    }),
  );
  console.log(`source: ${mirror ? `mirror ${mirror}` : 'network'}\n`);
  console.log(
    table(
      ['service', 'kind', 'source sha256', 'openapi', 'operations', 'path templates', 'redocly lint', 'swagger-parser'],
      checks.map(({ spec, lint, invalid }) => [
        spec.service,
        SERVICE_KINDS[spec.service],
        spec.sourceSha256,
        spec.openapi,
        String(spec.operations),
        'ok',
        lint.errors + lint.warnings === 0 ? 'clean' : `${lint.errors} errors, ${lint.warnings} warnings`,
        invalid ? 'INVALID' : 'valid',
      ]),
    ),
  );
  let ok = true;
  for (const { spec, lint, invalid } of checks) {
    if (lint.problems.length > 0) {
      console.log(
        `\n${spec.service}: redocly (${relative(process.cwd(), lint.file)}):\n  ${lint.problems.join('\n  ')}`,
      );
    }
    if (lint.errors > 0) ok = false;
    if (invalid) {
      console.log(`\n${spec.service}: swagger-parser: ${invalid}`);
      ok = false;
    }
  }
  console.log(
    `\nfinal documents: ${built.map((spec) => relative(process.cwd(), specPaths(spec.service).final)).join(', ')}`,
  );
  if (toolLists) console.log(toolLists);
  return ok;
}

async function update(services: ServiceName[]): Promise<boolean> {
  const mirror = mirrorFromEnv();
  for (const service of services) {
    const result = await updateSpec(service, { mirror });
    if (!result.changed) {
      console.log(`${service}: up to date (sha256 ${result.previous.sha256})`);
      continue;
    }
    console.log(`${service}: pinned ${result.next.sha256} (was ${result.previous.sha256})`);
    const s = result.summary;
    if (s) {
      const list = (label: string, items: string[]) =>
        items.length > 0 && console.log(`  ${label} (${items.length}): ${items.join(', ')}`);
      list('operations added', s.operationsAdded);
      list('operations removed', s.operationsRemoved);
      list('operations changed', s.operationsChanged);
      list('schemas added', s.schemasAdded);
      list('schemas removed', s.schemasRemoved);
      list('schemas changed', s.schemasChanged);
    } else {
      console.log('  (the previous document is not in specs/.cache; run specs:sync before updating to get a summary)');
    }
    if (result.overlayProblem) {
      console.log(
        `  the overlay needs attention before specs:sync will pass:\n  ${result.overlayProblem.replaceAll('\n', '\n  ')}`,
      );
    }
  }
  return true;
}

async function diff(args: string[]): Promise<boolean> {
  const changesets = args.includes('--changeset');
  const services = parseServices(
    args.filter((arg) => arg !== '--changeset'),
    (s) => SERVICE_KINDS[s] === 'fetched',
  );
  const run = await runDrift(services, { mirror: mirrorFromEnv(), changesets });
  console.log(driftSummary(run.report));
  console.log(`\nreport: ${run.reportFiles.map((file) => relative(process.cwd(), file)).join(', ')}`);
  for (const file of run.changesetFiles) console.log(`changeset: ${relative(process.cwd(), file)}`);
  // The same services' agent tool servers: their pinned tools/list against the current one.
  const toolServices = services.filter(isMcpService);
  const tools = toolServices.length > 0 ? await runToolDrift(toolServices, { mirror: mirrorFromEnv() }) : undefined;
  if (tools) console.log(`\n${tools.markdown}\nreport: ${relative(process.cwd(), tools.reportFile)}`);
  return driftExitCode(run.report) === 0 && !(tools && driftFailed(tools.drifts));
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === 'sync') return (await sync(parseServices(args))) ? 0 : 1;
    if (command === 'diff') return (await diff(args)) ? 0 : 1;
    if (command === 'update') return (await update(parseServices(args, (s) => SERVICE_KINDS[s] === 'fetched'))) ? 0 : 1;
    throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${USAGE}`);
      return 2;
    }
    console.error(`\n${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
