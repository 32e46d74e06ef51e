/** Test helpers of the generators' output. */
import type { Manifest, ManifestOperation } from '@agent-apis/core/service';
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { describeManifest } from './manifest/read.ts';

/** A final document with these paths, each operation without `x-safety` classed `read` (what the fixtures need). */
export function documentWith(paths: Record<string, unknown>, extra: Partial<OpenApiDocument> = {}): OpenApiDocument {
  for (const item of Object.values(paths) as Record<string, Record<string, unknown>>[]) {
    for (const [key, operation] of Object.entries(item)) {
      if (key !== 'parameters' && operation && typeof operation === 'object') operation['x-safety'] ??= 'read';
    }
  }
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, ...extra } as OpenApiDocument;
}

/** The manifest of a fixture document. */
export function manifestOf(document: OpenApiDocument, service = 'test'): Manifest {
  return describeManifest({ service: service as never, document, displayPath: `${service}.json`, sourceSha256: '0' });
}

/** The manifest rows of a fixture document, by operationId. */
export function rowsOf(document: OpenApiDocument): Record<string, ManifestOperation> {
  return Object.fromEntries(manifestOf(document).operations.map((operation) => [operation.id, operation]));
}

/**
 * The declared type and the data of a generated constant `export const <name>: <type> = /* @__PURE__ *\/
 * JSON.parse('<json>');`, the data read back by evaluating the emitted string literal as a JavaScript engine would.
 */
export function parsedConstant(source: string, name: string): { type: string; value: unknown } {
  const start = source.indexOf(`export const ${name}: `);
  if (start < 0) throw new Error(`no constant ${name} in the source`);
  const end = source.indexOf(');\n', start);
  const declaration = source.slice(start + `export const ${name}: `.length, end + 2);
  const marker = declaration.lastIndexOf(' = /* @__PURE__ */ JSON.parse(');
  if (marker < 0) throw new Error(`${name} is not parsed JSON marked pure`);
  const literal = declaration.slice(marker + ' = /* @__PURE__ */ JSON.parse('.length, -2);
  if (!/^'.*'$/s.test(literal)) throw new Error(`${name} parses no single-quoted string`);
  return { type: declaration.slice(0, marker), value: new Function(`return JSON.parse(${literal});`)() };
}
