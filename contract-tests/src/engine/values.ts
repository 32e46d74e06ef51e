/**
 * Request values derived from the spec's schemas: what the suite sends for "only the required parameters" and
 * for "all of them" (`@agent-apis/test-servers/sample-value`), and requests that break the contract.
 */
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { type Coverage, firstType, normalize, sampleValue } from '@agent-apis/test-servers/sample-value';
import type { ContractOperation } from '../contract-spec/spec.ts';

export type { Coverage };

/** Inputs for one call, in the shape the generated SDK functions take. */
export interface CallInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The call with only what the operation requires, or with every parameter and body property it declares. */
export function sampleInput(document: OpenApiDocument, operation: ContractOperation, coverage: Coverage): CallInput {
  const input: CallInput = {};
  for (const parameter of operation.parameters) {
    if (!parameter.required && coverage === 'required') continue;
    if (parameter.in === 'cookie' || parameter.in === 'header') continue;
    const value = sampleValue(document, parameter.schema, coverage);
    const slot = parameter.in === 'path' ? 'path' : 'query';
    input[slot] = { ...(input[slot] ?? {}), [parameter.name]: value };
  }
  if (operation.body && (operation.body.required || coverage === 'all')) {
    input.body = sampleValue(document, operation.body.schema, coverage);
  }
  return input;
}

/** A call that violates the operation's contract, and how it is expected to be stopped. */
export interface BrokenInput {
  input: CallInput;
  /** What was broken, for messages. */
  what: string;
  /** The broken field (`query.limit`, `body`) and the value sent there (left out for a missing value). */
  field?: string;
  sent?: unknown;
  /** `client`: the client can tell before sending; `either`: only the server may know. */
  stoppedBy: 'client' | 'either';
}

/** The first available way to break an operation's input, or undefined when it takes none. */
export function breakInput(document: OpenApiDocument, operation: ContractOperation): BrokenInput | undefined {
  const valid = sampleInput(document, operation, 'required');
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    const schema = normalize(document, parameter.schema);
    const query = (value: unknown) => ({ ...valid, query: { ...valid.query, [parameter.name]: value } });
    if (Array.isArray(schema.enum)) {
      return {
        input: query('not-in-the-enum'),
        what: `query.${parameter.name} outside its enum`,
        field: `query.${parameter.name}`,
        sent: 'not-in-the-enum',
        stoppedBy: 'client',
      };
    }
    if (typeof schema.maximum === 'number') {
      return {
        input: query(schema.maximum + 1),
        what: `query.${parameter.name} above its maximum ${schema.maximum}`,
        field: `query.${parameter.name}`,
        sent: schema.maximum + 1,
        stoppedBy: 'client',
      };
    }
    if (typeof schema.minimum === 'number') {
      return {
        input: query(schema.minimum - 1),
        what: `query.${parameter.name} below its minimum ${schema.minimum}`,
        field: `query.${parameter.name}`,
        sent: schema.minimum - 1,
        stoppedBy: 'client',
      };
    }
    if (parameter.required) {
      const { [parameter.name]: _omitted, ...rest } = valid.query ?? {};
      return {
        input: { ...valid, query: rest },
        what: `required query.${parameter.name} missing`,
        field: `query.${parameter.name}`,
        stoppedBy: 'client',
      };
    }
  }
  const pathParameter = operation.parameters.find((p) => p.in === 'path');
  if (pathParameter) {
    return {
      input: { ...valid, path: { ...valid.path, [pathParameter.name]: '' } },
      what: `path.${pathParameter.name} empty`,
      stoppedBy: 'client',
    };
  }
  if (operation.body) {
    const schema = normalize(document, operation.body.schema);
    const wrongType = firstType(schema) === 'array' ? { not: 'an array' } : ['not', 'an', 'object'];
    return {
      input: { ...valid, body: wrongType },
      what: 'body of the wrong type',
      field: 'body',
      sent: wrongType,
      stoppedBy: 'either',
    };
  }
  return undefined;
}
