import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parsedJson, tsConstType, tsLiteral } from './ts-literal.ts';

/** Data with what a spec may put in a row: quotes, backslashes, line breaks, null, negatives, nesting. */
const SAMPLE = {
  id: "it's",
  path: '/a\\b/{id}.json',
  nested: { enum: ['x', null, -1, 2.5, true], deeper: [{ a: 'line\nbreak', 'b-c': [] }], empty: {} },
  tuple: ['one', '', 'list', { variants: 'variant' }],
};

/** TypeScript's diagnostics of `source` compiled alone (strict, no lib checks). */
function typeErrors(source: string): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) =>
    name === 'check.ts' ? ts.createSourceFile(name, source, version) : read(name, version);
  const program = ts.createProgram(['check.ts'], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('tsConstType and parsedJson', () => {
  it('give the data back as JSON.parse reads it', () => {
    expect(new Function(`return ${parsedJson(SAMPLE)};`)()).toEqual(SAMPLE);
    expect(parsedJson(SAMPLE)).toMatch(/^\/\* @__PURE__ \*\/ JSON\.parse\('.*'\)$/s);
  });

  it('write the very type `as const` gives the literal', { timeout: 60_000 }, () => {
    const source = `type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const literal = ${tsLiteral(SAMPLE)} as const;
const parsed: ${tsConstType(SAMPLE)} = ${parsedJson(SAMPLE)};
export const same: Same<typeof literal, typeof parsed> = true;
// @ts-expect-error the type is the literal, not a wider one
export const widened: typeof parsed = { ...parsed, id: 'other' };
`;
    expect(typeErrors(source)).toEqual([]);
  });
});
