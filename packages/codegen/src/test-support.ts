/** Test helpers of the generators' output. */

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
