import {
  effectiveParameters,
  listOperations,
  type OpenApiDocument,
  type Parameter,
  resolveRef,
  type Schema,
} from './openapi.ts';

/**
 * Path-template problems that linters miss and that make routers (Prism included) pick the wrong operation.
 *
 * - `identical`: two templates that differ only by parameter names (`/jsapps/{code}.json`, `/jsapps/{id}.json`).
 * - `ambiguous`: two templates that one URL can match, segment by segment, given the parameters' schemas
 *   (`/products/search.json` and `/products/{id}.json` while `id` accepts any string). A literal is disjoint
 *   from a template whose parameter rejects it (integer type, enum, pattern).
 * - `parameter-mismatch`: an operation whose declared `in: path` parameters are not exactly its template's names.
 */
export interface PathConflict {
  kind: 'identical' | 'ambiguous' | 'parameter-mismatch';
  paths: string[];
  detail: string;
}

const TEMPLATE_VARIABLE = /\{([^}]+)\}/g;

export function templateVariables(path: string): string[] {
  return [...path.matchAll(TEMPLATE_VARIABLE)].map((match) => match[1] as string);
}

type SchemasByName = Map<string, Schema | undefined>;

/** The schema each path parameter has across the path's operations (the first declaration wins). */
function pathParameterSchemas(document: OpenApiDocument): Map<string, SchemasByName> {
  const result = new Map<string, SchemasByName>();
  for (const ref of listOperations(document)) {
    const schemas = result.get(ref.path) ?? new Map<string, Schema | undefined>();
    for (const parameter of effectiveParameters(document, ref)) {
      if (parameter.in === 'path' && !schemas.has(parameter.name)) {
        schemas.set(parameter.name, parameter.schema && resolveRef<Schema>(document, parameter.schema));
      }
    }
    result.set(ref.path, schemas);
  }
  return result;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a parameter with this schema could take `value` as its path segment text. */
function accepts(schema: Schema | undefined, value: string): boolean {
  if (!schema) return value.length > 0;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (schema.enum && !schema.enum.some((option) => String(option) === value)) return false;
  if (types.length > 0 && !types.includes('string')) {
    const numeric = /^-?\d+(\.\d+)?$/.test(value);
    const integer = /^-?\d+$/.test(value);
    if (!(types.includes('integer') && integer) && !(types.includes('number') && numeric)) return false;
  }
  if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return false;
  return value.length > 0;
}

/** Does the segment template match `text`, with every captured value acceptable to its parameter? */
function segmentMatches(segment: string, text: string, schemas: SchemasByName): boolean {
  const names = templateVariables(segment);
  const source = segment.split(TEMPLATE_VARIABLE).map((part, i) => (i % 2 === 0 ? escapeRegExp(part) : '([^/]+)'));
  const match = new RegExp(`^${source.join('')}$`).exec(text);
  if (!match) return false;
  return names.every((name, i) => accepts(schemas.get(name), match[i + 1] as string));
}

/** Representative texts a segment can take: enum values, an integer, a word. */
function sampleTexts(segment: string, schemas: SchemasByName): string[] {
  let samples = [''];
  segment.split(TEMPLATE_VARIABLE).forEach((part, i) => {
    if (i % 2 === 0) {
      samples = samples.map((prefix) => prefix + part);
      return;
    }
    const schema = schemas.get(part);
    const values = schema?.enum ? schema.enum.map(String) : ['1', 'x'];
    samples = samples.flatMap((prefix) => values.filter((v) => accepts(schema, v)).map((v) => prefix + v));
  });
  return samples;
}

function segmentsOverlap(a: string, b: string, schemasA: SchemasByName, schemasB: SchemasByName): boolean {
  if (a === b && !a.includes('{')) return true;
  return (
    sampleTexts(a, schemasA).some((text) => segmentMatches(b, text, schemasB)) ||
    sampleTexts(b, schemasB).some((text) => segmentMatches(a, text, schemasA))
  );
}

function shape(path: string): string {
  return path.replace(TEMPLATE_VARIABLE, '{}');
}

export function findPathConflicts(document: OpenApiDocument): PathConflict[] {
  const conflicts: PathConflict[] = [];
  const schemas = pathParameterSchemas(document);
  const paths = Object.keys(document.paths ?? {});

  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const a = paths[i] as string;
      const b = paths[j] as string;
      if (shape(a) === shape(b)) {
        conflicts.push({ kind: 'identical', paths: [a, b], detail: 'templates differ only by parameter names' });
        continue;
      }
      const segmentsA = a.split('/');
      const segmentsB = b.split('/');
      if (segmentsA.length !== segmentsB.length) continue;
      const schemasA = schemas.get(a) ?? new Map();
      const schemasB = schemas.get(b) ?? new Map();
      const overlap = segmentsA.every((segment, k) =>
        segmentsOverlap(segment, segmentsB[k] as string, schemasA, schemasB),
      );
      if (overlap) {
        conflicts.push({ kind: 'ambiguous', paths: [a, b], detail: 'one URL can match both templates' });
      }
    }
  }

  for (const ref of listOperations(document)) {
    const declared = effectiveParameters(document, ref)
      .filter((parameter: Parameter) => parameter.in === 'path')
      .map((parameter) => parameter.name)
      .sort();
    const expected = templateVariables(ref.path).sort();
    if (declared.join() !== expected.join()) {
      conflicts.push({
        kind: 'parameter-mismatch',
        paths: [ref.path],
        detail: `${ref.method.toUpperCase()} declares path parameters [${declared.join(', ')}] but the template has [${expected.join(', ')}]`,
      });
    }
  }
  return conflicts;
}
