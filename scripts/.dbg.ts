import { rolldown } from 'rolldown';
import { readFileSync } from 'node:fs';
import { entriesOf } from '/work/wt-i31-bundle/scripts/build-package.ts';
const manifest = JSON.parse(readFileSync('package.json','utf8'));
const b = await rolldown({ cwd: process.cwd(), input: entriesOf(manifest), platform: 'neutral', external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'), preserveEntrySignatures: 'strict' });
const { output } = await b.generate({ format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name].js' });
for (const c of output) if (c.type === 'chunk') {
  const importers = output.filter(o => o.type==='chunk' && o.imports.includes(c.fileName)).map(o=>o.fileName);
  const dyn = output.filter(o => o.type==='chunk' && o.dynamicImports.includes(c.fileName)).map(o=>o.fileName);
  console.log(c.fileName, c.isEntry?'E':c.isDynamicEntry?'D':'S', 'mods:', c.moduleIds.map(m=>m.replace(/.*\/src\//,'')).join(','), '| static importers:', importers.join(','), '| dyn importers:', dyn.join(','));
}
