import { describe, expect, it } from 'vitest';
import { addBanners, addGenSuffix, type FileTree, pruneUnreachable } from './file-tree.ts';

const tree = (entries: Record<string, string>): FileTree => new Map(Object.entries(entries));

describe('addGenSuffix', () => {
  it('renames .ts files to .gen.ts and rewrites the imports that point at them', () => {
    const renamed = addGenSuffix(
      tree({
        'sdk/index.ts': "export * from './sdk.gen.js';\nexport type { A } from './client/index.js';\n",
        'sdk/sdk.gen.ts': 'import { c } from \'./client/index.js\';\nimport type { T } from "../zod/x.js";\n',
        'sdk/client/index.ts': "export { c } from '../core/c.gen.js';\nconst lazy = () => import('./lazy.js');\n",
        'sdk/client/lazy.ts': '',
        'sdk/core/c.gen.ts': "import { z } from 'zod';\n",
        'zod/x.ts': '',
        'README.md': "from './x.js'",
      }),
    );
    expect([...renamed.keys()].sort()).toEqual([
      'README.md',
      'sdk/client/index.gen.ts',
      'sdk/client/lazy.gen.ts',
      'sdk/core/c.gen.ts',
      'sdk/index.gen.ts',
      'sdk/sdk.gen.ts',
      'zod/x.gen.ts',
    ]);
    expect(renamed.get('sdk/index.gen.ts')).toBe(
      "export * from './sdk.gen.js';\nexport type { A } from './client/index.gen.js';\n",
    );
    expect(renamed.get('sdk/sdk.gen.ts')).toBe(
      'import { c } from \'./client/index.gen.js\';\nimport type { T } from "../zod/x.gen.js";\n',
    );
    expect(renamed.get('sdk/client/index.gen.ts')).toBe(
      "export { c } from '../core/c.gen.js';\nconst lazy = () => import('./lazy.gen.js');\n",
    );
    expect(renamed.get('README.md')).toBe("from './x.js'");
  });

  it('fails on a relative import that points at no generated file', () => {
    expect(() => addGenSuffix(tree({ 'msw/a.ts': "import type { M } from './model';\n" }))).toThrow(
      "msw/a.ts: import './model' does not resolve to a generated file",
    );
  });
});

describe('pruneUnreachable', () => {
  it('keeps what the entry points import (transitively) inside the folder, and everything outside it', () => {
    const pruned = pruneUnreachable(
      tree({
        'msw/s.msw.gen.ts': "import { f } from './s.faker.gen.js';",
        'msw/s.faker.gen.ts': "import type { A } from './model/a.gen.js';",
        'msw/model/a.gen.ts': '',
        'msw/s.gen.ts': "import type { B } from './model/b.gen.js';",
        'msw/model/b.gen.ts': '',
        'sdk/sdk.gen.ts': '',
      }),
      'msw',
      ['msw/s.msw.gen.ts'],
    );
    expect([...pruned.keys()].sort()).toEqual([
      'msw/model/a.gen.ts',
      'msw/s.faker.gen.ts',
      'msw/s.msw.gen.ts',
      'sdk/sdk.gen.ts',
    ]);
  });
});

describe('addBanners', () => {
  it('puts the banner line first in TypeScript files only', () => {
    const result = addBanners(tree({ 'a.gen.ts': 'code\n', 'README.md': 'text\n' }), (file) => `// ${file}`);
    expect(result.get('a.gen.ts')).toBe('// a.gen.ts\ncode\n');
    expect(result.get('README.md')).toBe('text\n');
  });
});
