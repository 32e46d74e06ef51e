/**
 * Which modules a piece of code makes Node load: the script runs in a fresh Node process whose module loads are
 * recorded by a synchronous `load` hook, so a test can say what an import or a first call pulls in.
 */
import { runScript } from './processes.ts';

/**
 * Longest the script may run before its process is killed: under the packages' 30 s test timeout, so a hung script
 * is killed while its test still waits on it.
 */
const SCRIPT_DEADLINE_MS = 20_000;

/**
 * Runs `script` (the body of an ES module, top-level `await` allowed) in a fresh Node process started in `cwd`, so
 * that package names resolve as they do for that package. Every call of `mark()` in the script starts a new
 * segment; resolves with the `file:` URLs loaded in each segment, in load order, once the process exits (so a load
 * the script started without awaiting it is counted too: the script must let the process end, closing what it
 * opened). Rejects, with the script's standard error, when it fails.
 *
 * With `jsonAnswer`, the script finds `origin` in scope: a loopback server that answers every request with 200 and
 * that JSON body, started before the script (its start is a segment of its own, the first) and closed after it.
 */
export async function modulesLoaded(
  cwd: string,
  script: string,
  options: { jsonAnswer?: string } = {},
): Promise<string[][]> {
  const { jsonAnswer } = options;
  const serve =
    jsonAnswer === undefined
      ? { before: '', after: '' }
      : {
          before: `
const { createServer } = await import('node:http');
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(${JSON.stringify(jsonAnswer)}));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = 'http://127.0.0.1:' + server.address().port;
mark();`,
          after: `
server.closeAllConnections();
server.close();`,
        };
  const program = `
import { registerHooks } from 'node:module';
const segments = [[]];
registerHooks({ load(url, context, next) { segments.at(-1).push(url); return next(url, context); } });
globalThis.mark = () => { segments.push([]); };
process.on('exit', () => {
  console.log(JSON.stringify(segments.map((urls) => urls.filter((url) => url.startsWith('file:')))));
});
${serve.before}
${script}
${serve.after}
`;
  const run = await runScript<string[][]>(['--input-type=module', '-e', program], {
    cwd,
    deadlineMs: SCRIPT_DEADLINE_MS,
  });
  if (run.code !== 0) throw new Error(`the script exited with ${run.code}: ${run.stderr.trim()}`);
  if (!run.result) throw new Error(`the script printed no module list: ${run.stdout.trim()}`);
  return run.result;
}

/** The `file:` URLs of `urls` under `packages/<name>/dist/`, as `<name>/<file>` (e.g. `core/index.js`). */
export function packageModules(urls: readonly string[]): string[] {
  return urls.flatMap((url) => {
    const match = /\/packages\/([^/]+)\/dist\/(.+)$/.exec(url);
    return match ? [`${match[1]}/${match[2]}`] : [];
  });
}
