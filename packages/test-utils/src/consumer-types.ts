/**
 * Type-checks a consumer's program against a package's published declarations (`dist/*.d.ts`) the way a
 * Node-only project would: `lib: ["ES2023"]` (no DOM), `skipLibCheck: false`, strict with
 * `exactOptionalPropertyTypes`. The package must be built first (turbo's `test` depends on `build`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Options of {@link consumerTypeErrors}. */
export interface ConsumerTypeOptions {
  /** The consumer's `types` (default `["node"]`: Node's globals, no DOM). */
  types?: string[];
}

/** The type errors of `source` compiled as a consumer of the package at `packageRoot`, one line each. */
export function consumerTypeErrors(packageRoot: URL, source: string, options: ConsumerTypeOptions = {}): string[] {
  const root = fileURLToPath(packageRoot);
  const { name } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string };
  const dir = mkdtempSync(join(tmpdir(), 'consumer-types-'));
  try {
    const file = join(dir, 'consumer.ts');
    writeFileSync(file, source);
    const program = ts.createProgram([file], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: false,
      noEmit: true,
      types: options.types ?? ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      // The package as its consumers resolve it: through its published declarations.
      paths: { [name]: [join(root, 'dist', 'index.d.ts')] },
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file
        ? `${diagnostic.file.fileName.replace(root, '').replace(dir, '<consumer>')}:${
            diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1
          }`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
