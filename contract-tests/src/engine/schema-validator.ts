/**
 * Validates response bodies against the final spec's own schemas with Ajv (draft 2020-12 for OpenAPI 3.1,
 * draft-07 semantics plus `nullable` for 3.0), independently of the generated zod schemas.
 */
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const KNOWN_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'email',
  'uri',
  'url',
  'uuid',
  'hostname',
  'ipv4',
  'ipv6',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
  'uri-reference',
  'regex',
]);

/** OpenAPI 3.0's `nullable: true` as JSON Schema: null joins the allowed types (and enum). */
function convertNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertNullable);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = convertNullable(value);
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (!out.type && out.$ref) return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
  }
  return out;
}

function collectFormats(node: unknown, formats: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectFormats(item, formats);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string') formats.add(value);
      else collectFormats(value, formats);
    }
  }
}

function pointer(parts: string[]): string {
  return parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

export interface SchemaProblem {
  path: string;
  message: string;
}

export class SpecSchemaValidator {
  readonly #ajv: Ajv;
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    const is31 = document.openapi.startsWith('3.1');
    const ajv = is31 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const formats = new Set<string>();
    collectFormats(document, formats);
    for (const format of formats) if (!KNOWN_FORMATS.has(format) && !ajv.formats[format]) ajv.addFormat(format, true);
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) {
      if (!ajv.formats[format]) ajv.addFormat(format, true);
    }
    ajv.addSchema((is31 ? document : convertNullable(document)) as object, 'spec');
    this.#ajv = ajv;
  }

  /** Problems of `body` against the JSON response schema of `status` of the operation at method/path. */
  validateResponse(method: string, path: string, status: number, body: unknown): SchemaProblem[] {
    const contentPath = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content'];
    const key = pointer(contentPath);
    let validate = this.#cache.get(key);
    if (!validate) {
      const content = this.#ajv.getSchema(`spec#/${key}`)?.schema as Record<string, unknown> | undefined;
      const type = Object.keys(content ?? {}).find((name) => name.includes('json'));
      if (!type) return [];
      validate = this.#ajv.compile({ $ref: `spec#/${pointer([...contentPath, type, 'schema'])}` });
      this.#cache.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => ({
      path: error.instancePath || '(body)',
      message: error.message ?? 'invalid',
    }));
  }
}
