import { spawn } from 'node:child_process';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenApiDocument } from './openapi.ts';

/**
 * Second, independent validator: @apidevtools/swagger-parser checks the document against the official OpenAPI
 * schema and resolves every `$ref`. Returns the problem, or undefined when the document is valid.
 */
export async function validateDocument(document: OpenApiDocument): Promise<string | undefined> {
  try {
    await SwaggerParser.validate(structuredClone(document) as never);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export interface LintResult {
  file: string;
  errors: number;
  warnings: number;
  /** One line per problem: "severity rule: message (pointer)". */
  problems: string[];
}

interface RedoclyJson {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] }[];
}

/** Lints one document with Redocly CLI and the committed ruleset (`specs/redocly.yaml`). */
export function lintWithRedocly(file: string, config: string): Promise<LintResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('redocly', ['lint', file, '--config', config, '--format=json', '--max-problems=1000'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const start = stdout.indexOf('{');
      if (start < 0) return reject(new Error(`redocly printed no report for ${file}:\n${stderr}`));
      const report = JSON.parse(stdout.slice(start)) as RedoclyJson;
      resolve({
        file,
        errors: report.totals.errors,
        warnings: report.totals.warnings,
        problems: report.problems.map(
          (p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer ?? '?'})`,
        ),
      });
    });
  });
}
