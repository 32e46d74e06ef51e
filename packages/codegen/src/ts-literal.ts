/** Renders JSON data as a readable TypeScript literal: bare identifier keys, arrays of scalars on one line. */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function propertyKey(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

export function tsLiteral(value: unknown, indent = ''): string {
  if (isScalar(value)) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every(isScalar)) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    return `[\n${value.map((item) => `${inner}${tsLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${propertyKey(key)}: ${tsLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

/**
 * The type TypeScript gives `value as const`, written out: `readonly` properties, `readonly [...]` tuples, literal
 * scalars. Emitted beside data that is parsed at run time, so the constant keeps its literal type.
 */
export function tsConstType(value: unknown, indent = ''): string {
  if (isScalar(value)) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every(isScalar)) return `readonly [${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    return `readonly [\n${value.map((item) => `${inner}${tsConstType(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}readonly ${propertyKey(key)}: ${tsConstType(item, inner)};`).join('\n')}\n${indent}}`;
}

/**
 * `JSON.parse('…')` of `value`, marked pure so a bundler drops it when nothing reads the constant. V8 parses JSON
 * text faster than it evaluates the same object literal the first (and, at import, only) time.
 */
export function parsedJson(value: unknown): string {
  const text = JSON.stringify(value).replace(/[\\']/g, (char) => `\\${char}`);
  return `/* @__PURE__ */ JSON.parse('${text}')`;
}
