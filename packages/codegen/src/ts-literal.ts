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
