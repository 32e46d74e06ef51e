import { describe, expect, it } from 'vitest';
import { compactZodModule } from './zod-module.ts';

describe('compactZodModule', () => {
  it('drops describe calls, escaped quotes included, and leaves the rest of the chain', () => {
    const source = `"name": zod.string().optional().describe('Store\\'s name (\\'main\\')'),\n"n": zod.number().min(1).describe('Count'),`;
    expect(compactZodModule(source)).toBe(`"name": zod.string().optional(),\n"n": zod.number().min(1),`);
  });

  it('annotates an array of a named item with the type it infers', () => {
    const source =
      'export const ListHooksResponseItem = zod.object({})\nexport const ListHooksResponse = zod.array(ListHooksResponseItem)\n';
    expect(compactZodModule(source)).toBe(
      'export const ListHooksResponseItem = zod.object({})\nexport const ListHooksResponse: zod.ZodArray<typeof ListHooksResponseItem> = zod.array(ListHooksResponseItem)\n',
    );
  });
});
