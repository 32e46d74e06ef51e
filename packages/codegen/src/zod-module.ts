/**
 * Two rewrites of orval's zod module that keep the published store package within its size budget without
 * changing a schema's behaviour or type:
 *
 * - orval copies every schema's `description` into `.describe('…')`: a quarter of the module, repeating what
 *   the SDK's types carry as doc comments, and read by nothing at run time (validation ignores it). Dropped.
 * - `export const XResponse = zod.array(XResponseItem)` makes tsc restate the whole item type in the
 *   declaration file; annotated as `zod.ZodArray<typeof XResponseItem>` (the type it infers anyway), the
 *   declaration names the item instead.
 */

/** A `.describe('…')` call with a single-quoted literal, escapes included. */
const DESCRIBE_CALL = /\.describe\('(?:[^'\\]|\\.)*'\)/g;

/** `export const Name = zod.array(Item)` on a line of its own. */
const ARRAY_OF_NAMED_ITEM = /^export const (\w+) = zod\.array\((\w+)\)$/gm;

export function compactZodModule(source: string): string {
  return source
    .replace(DESCRIBE_CALL, '')
    .replace(ARRAY_OF_NAMED_ITEM, 'export const $1: zod.ZodArray<typeof $2> = zod.array($2)');
}
