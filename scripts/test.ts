/**
 * `pnpm test`: every check of the repository, each run even when an earlier one failed, then one closing summary
 * naming every step and every turbo task that failed. The tasks run with `--continue=dependencies-successful`:
 * a failing package test no longer cancels the other packages' tasks, so one run shows everything that is broken;
 * a task whose dependency failed is not run, and is counted as such.
 */
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

interface Step {
  name: string;
  command: string;
  args: string[];
}

const STEPS: readonly Step[] = [
  { name: 'lint (biome)', command: 'biome', args: ['check', '.'] },
  { name: 'workflows (actionlint)', command: 'pnpm', args: ['lint:workflows'] },
  {
    name: 'typecheck, test, lint:pkg (turbo)',
    command: 'turbo',
    args: [
      'run',
      'typecheck',
      'test',
      'lint:pkg',
      '--concurrency=3',
      '--output-logs=new-only',
      '--continue=dependencies-successful',
    ],
  },
  { name: 'size budgets', command: 'pnpm', args: ['size'] },
];

interface Outcome {
  step: Step;
  code: number;
  /** The turbo tasks that failed (`@agent-apis/store#test`), from turbo's `Failed:` line. */
  failedTasks: string[];
  /** Turbo tasks neither successful nor failed: not run because a dependency failed. */
  notRun: number;
}

/** Runs `step`, its output passed through as it comes, and reads turbo's closing lines out of it. */
function run(step: Step): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { stdio: ['inherit', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
      to.write(chunk);
      tail = (tail + chunk.toString()).slice(-4_000);
    };
    child.stdout.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
    const done = (code: number) => {
      const text = stripVTControlCharacters(tail);
      const failed = /^Failed:\s+(.+)$/m.exec(text)?.[1];
      const tasks = /^\s*Tasks:\s+(\d+) successful, (\d+) total/m.exec(text);
      const failedTasks = failed ? failed.split(',').map((task) => task.trim()) : [];
      const notRun = tasks ? Math.max(0, Number(tasks[2]) - Number(tasks[1]) - failedTasks.length) : 0;
      resolve({ step, code, failedTasks, notRun });
    };
    child.on('error', (error) => {
      process.stderr.write(`${step.command}: ${error.message}\n`);
      done(127);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

const outcomes: Outcome[] = [];
for (const step of STEPS) outcomes.push(await run(step));

const failed = outcomes.filter((outcome) => outcome.code !== 0);
const lines = ['', `pnpm test: ${outcomes.length - failed.length} of ${outcomes.length} steps passed`];
for (const { step, code, failedTasks, notRun } of outcomes) {
  lines.push(`  ${code === 0 ? 'ok  ' : 'FAIL'}  ${step.name}${code === 0 ? '' : ` (exit ${code})`}`);
  for (const task of failedTasks) lines.push(`          failed task: ${task}`);
  if (notRun > 0) lines.push(`          ${notRun} task(s) not run: a task they depend on failed`);
}
console.log(lines.join('\n'));
process.exitCode = failed.length === 0 ? 0 : 1;
