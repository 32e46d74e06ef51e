/**
 * Maps each operationId to the zod schemas orval generated for it. orval names them after the operationId in
 * PascalCase plus a suffix; every such export must belong to an operation, so a change in orval's naming fails
 * generation instead of silently dropping validators.
 */
import { propertyKey } from './ts-literal.ts';

/** Which part of a request or response a schema validates, and orval's suffix for it. */
const PARTS = [
  ['path', 'Params'],
  ['query', 'QueryParams'],
  ['body', 'Body'],
  ['response', 'Response'],
] as const;

export type ValidatedPart = (typeof PARTS)[number][0];

/** Names of the `export const` declarations in a generated module. */
export function exportedConstNames(source: string): string[] {
  return [...source.matchAll(/^export const (\w+)\s*=/gm)].map((match) => match[1] as string);
}

function pascal(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

export function mapValidators(
  operationIds: readonly string[],
  zodExports: readonly string[],
): Record<string, Partial<Record<ValidatedPart, string>>> {
  const available = new Set(zodExports);
  const claimed = new Set<string>();
  const map: Record<string, Partial<Record<ValidatedPart, string>>> = {};
  for (const id of operationIds) {
    const entry: Partial<Record<ValidatedPart, string>> = {};
    for (const [part, suffix] of PARTS) {
      const name = `${pascal(id)}${suffix}`;
      if (available.has(name)) {
        entry[part] = name;
        claimed.add(name);
      }
    }
    map[id] = entry;
  }
  const orphans = zodExports.filter((name) => /^[A-Z]\w*(Params|Body|Response)$/.test(name) && !claimed.has(name));
  if (orphans.length > 0) {
    throw new Error(
      `zod schemas that match no operationId (orval's naming no longer matches ours): ${orphans.join(', ')}`,
    );
  }
  return map;
}

/** Source of `validators.gen.ts` (without banner). `zodModule` is the zod file's import specifier. */
export function renderValidatorsModule(
  validators: Record<string, Partial<Record<ValidatedPart, string>>>,
  zodModule: string,
): string {
  const rows = Object.entries(validators).map(([id, parts]) => {
    const fields = Object.entries(parts).map(([part, name]) => `${part}: schemas.${name}`);
    return `  ${propertyKey(id)}: ${fields.length > 0 ? `{ ${fields.join(', ')} }` : '{}'},`;
  });
  // Typed with typeof so that the declaration file refers to the zod module instead of restating every schema.
  const types = Object.entries(validators).map(([id, parts]) => {
    const fields = Object.entries(parts).map(([part, name]) => `readonly ${part}: typeof schemas.${name}`);
    // Said outright when there is none, so that every entry shares `response` with the types that read it.
    if (!parts.response) fields.push('readonly response?: undefined');
    return `  readonly ${propertyKey(id)}: { ${fields.join('; ')} };`;
  });
  return `import type { ZodType } from 'zod';
import type { OperationId } from './operations.gen.js';
import * as schemas from '${zodModule}';

/** The zod schemas of one operation: path parameters, query, request body and success response, where they exist. */
export interface OperationValidators {
  readonly path?: ZodType;
  readonly query?: ZodType;
  readonly body?: ZodType;
  readonly response?: ZodType;
}

/** The type of {@link validators}. */
export type Validators = {
${types.join('\n')}
};

/** Every operation's zod schemas, keyed by operationId. */
export const validators: Validators = {
${rows.join('\n')}
} satisfies Record<OperationId, OperationValidators>;
`;
}
