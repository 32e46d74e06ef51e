// The consumer program run by Node, Bun and Deno: one line of JSON with what each package's calls gave.
import { runCalls } from './calls.mjs';
import { config } from './config.mjs';

console.log(JSON.stringify(await runCalls(config)));
