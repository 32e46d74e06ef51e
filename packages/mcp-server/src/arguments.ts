/**
 * Arguments checked against an operation's input schema before anything is sent, and split into the client's
 * call options (`path`, `query`, `body`).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { ToolOperation } from './operation.js';

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new WeakMap<ToolOperation, ValidateFunction>();

/** The problems of `args` for `operation`, each naming the argument (empty when valid); at most five. */
export function argumentProblems(operation: ToolOperation, args: unknown): string[] {
  let validate = compiled.get(operation);
  if (!validate) {
    validate = ajv.compile(operation.inputSchema);
    compiled.set(operation, validate);
  }
  if (validate(args)) return [];
  return (validate.errors ?? []).slice(0, 5).map((error) => {
    const where = `arguments${error.instancePath.replaceAll('/', '.')}`;
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    return extra ? `${where} has no argument named ${extra}` : `${where} ${error.message ?? 'is invalid'}`;
  });
}

/** The client's call options for checked `args`: path template variables, query parameters and `body`. */
export function callOptions(operation: ToolOperation, args: Record<string, unknown>) {
  const pathNames = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  let body: unknown;
  for (const [name, value] of Object.entries(args)) {
    if (name === 'body') body = value;
    else if (pathNames.includes(name)) path[name] = value;
    else query[name] = value;
  }
  return {
    ...(pathNames.length > 0 ? { path } : {}),
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
  };
}
