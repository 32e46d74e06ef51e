/**
 * The input schemas as listed, per client family (`--schema-profile`). The server checks arguments against the
 * operation's own schema whatever is listed; a profile only changes what a client is shown:
 *
 * - `default`: what the most clients accept as is. No `additionalProperties` (Gemini's `parameters` subset has no
 *   such field; the server still refuses an undeclared argument, naming it), a nullable type as `anyOf` of the type
 *   and `null` (single-type dialects), `default` moved into the description and length bounds dropped (OpenAI strict
 *   refuses both), `oneOf` as `anyOf`, formats other than `date-time` dropped, an enum of numbers said in words,
 *   and a free-form object (no declared property: Gemini and OpenAI strict refuse it) as JSON text.
 * - `openai`: the default, then OpenAI's strict conversion done here (every property required, optional ones
 *   nullable, `additionalProperties: false` on every object), for a client that sends schemas as they are.
 * - `gemini`: the default with Gemini's own spelling of a nullable type (`nullable: true`).
 * - `native`: the default with free-form objects left as objects, for clients that take any JSON Schema.
 *
 * A free-form object sent as JSON text is parsed back by the server before the check ({@link normalizeArguments}
 * in `arguments.ts`), and so is `null` for an optional argument that does not take `null` (dropped).
 */
import type { SpecSchema } from './operation.js';

export const SCHEMA_PROFILES = ['default', 'openai', 'gemini', 'native'] as const;
export type SchemaProfile = (typeof SCHEMA_PROFILES)[number];

/** Environment variable read when `--schema-profile` is not given. */
export const SCHEMA_PROFILE_ENV_VAR = 'AGENT_APIS_MCP_SCHEMA_PROFILE';

type Node = Record<string, unknown>;

const KEEP_FORMATS = new Set(['date-time']);

function isRecord(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object schema that declares no property: any object (`{ type: 'object' }`, maps). */
export function isFreeFormObject(node: Node): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const properties = isRecord(node.properties) ? Object.keys(node.properties) : [];
  return types.includes('object') && properties.length === 0;
}

function withDescription(node: Node, extra: string): string {
  const text = typeof node.description === 'string' ? node.description.replace(/\.?$/, '.') : '';
  return `${text}${text ? ' ' : ''}${extra}`;
}

/** One node under the default profile (children first). */
function portable(raw: unknown, profile: SchemaProfile): Node {
  if (!isRecord(raw)) return {};
  const node: Node = {};
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'additionalProperties':
      case 'minLength':
      case 'maxLength':
      case 'default':
        break;
      case 'format':
        if (typeof value === 'string' && KEEP_FORMATS.has(value)) node.format = value;
        break;
      case 'properties':
        node.properties = Object.fromEntries(
          Object.entries(value as Node).map(([name, child]) => [name, portable(child, profile)]),
        );
        break;
      case 'items':
        node.items = portable(value, profile);
        break;
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        // allOf of one schema is that schema; oneOf loses only exclusivity (the server checks the original).
        if (key === 'allOf' && Array.isArray(value) && value.length === 1)
          Object.assign(node, portable(value[0], profile));
        else node[key === 'allOf' ? 'allOf' : 'anyOf'] = (value as unknown[]).map((entry) => portable(entry, profile));
        break;
      default:
        node[key] = value;
    }
  }
  if (raw.default !== undefined) node.description = withDescription(node, `Default ${JSON.stringify(raw.default)}.`);
  // Gemini takes enums of strings only: the values of another type are said in words (the server checks them).
  if (Array.isArray(node.enum) && (node.type !== 'string' || node.enum.some((value) => typeof value !== 'string'))) {
    const values = node.enum.filter((value) => value !== null);
    if (node.type !== 'string' && !(Array.isArray(node.type) && node.type.includes('string'))) {
      node.description = withDescription(node, `One of ${values.map((value) => JSON.stringify(value)).join(', ')}.`);
      delete node.enum;
    }
  }
  if (profile !== 'native' && isFreeFormObject(node)) {
    return {
      type: 'string',
      description: withDescription(node, 'A JSON object, as text.'),
    };
  }
  const types = Array.isArray(node.type) ? (node.type as string[]) : undefined;
  if (types) {
    const others = types.filter((type) => type !== 'null');
    if (others.length === 1 && types.includes('null')) {
      const { description, enum: values, ...rest } = node;
      const typed: Node = { ...rest, type: others[0] };
      if (Array.isArray(values)) typed.enum = values.filter((value) => value !== null);
      // Gemini's own spelling of a nullable type (its Schema object's `nullable`).
      if (profile === 'gemini') return { ...typed, nullable: true, ...(description ? { description } : {}) };
      return { anyOf: [typed, { type: 'null' }], ...(description ? { description } : {}) };
    }
  }
  return node;
}

/** Whether `node` accepts `null`. */
function acceptsNull(node: Node): boolean {
  if (Array.isArray(node.type)) return node.type.includes('null');
  if (node.type === 'null') return true;
  if (Array.isArray(node.anyOf)) return node.anyOf.some((entry) => isRecord(entry) && acceptsNull(entry));
  return node.type === undefined && node.enum === undefined && node.anyOf === undefined;
}

/** OpenAI's strict conversion: every object closed, every property required, the optional ones nullable. */
export function strictConversion(raw: unknown): Node {
  if (!isRecord(raw)) return {};
  const node: Node = { ...raw };
  if (isRecord(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    node.properties = Object.fromEntries(
      Object.entries(node.properties).map(([name, child]) => {
        const converted = strictConversion(child);
        if (required.has(name) || acceptsNull(converted)) return [name, converted];
        const { description, ...rest } = converted;
        return [name, { anyOf: [rest, { type: 'null' }], ...(description ? { description } : {}) }];
      }),
    );
    node.required = Object.keys(node.properties as Node);
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object')) node.additionalProperties = false;
  if (node.items !== undefined) node.items = strictConversion(node.items);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(node[key])) node[key] = (node[key] as unknown[]).map(strictConversion);
  }
  return node;
}

/** The listed form of an input schema under `profile`. */
export function profileSchema(schema: SpecSchema, profile: SchemaProfile = 'default'): SpecSchema {
  const listed = portable(schema, profile);
  return (profile === 'openai' ? strictConversion(listed) : listed) as SpecSchema;
}
