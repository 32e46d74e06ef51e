/** The store tool's search over the operation table: words matched against ids, summaries, paths and parameters. */
import { snakeCase } from './names.js';
import type { ToolOperation } from './operation.js';

function words(text: string): string[] {
  return snakeCase(text)
    .split('_')
    .filter((word) => word.length > 1)
    .map((word) => word.replace(/s$/, ''));
}

function haystack(operation: ToolOperation): Set<string> {
  const parameters = Object.keys((operation.inputSchema.properties ?? {}) as object);
  return new Set(words([operation.id, operation.summary, operation.path, ...parameters].join(' ')));
}

/**
 * The operations matching most words of `query` (an exact operation id first), best first, table order on ties;
 * operations matching no word are left out.
 */
export function searchOperations(
  operations: readonly ToolOperation[],
  query: string,
  options: { safety?: string | undefined; limit?: number | undefined } = {},
): ToolOperation[] {
  const terms = words(query);
  const exact = query.trim().toLowerCase();
  return operations
    .filter((operation) => !options.safety || operation.safety === options.safety)
    .map((operation, index) => {
      const found = haystack(operation);
      const idWords = new Set(words(operation.id));
      let score = operation.id.toLowerCase() === exact ? 1000 : 0;
      for (const term of terms) score += idWords.has(term) ? 3 : found.has(term) ? 1 : 0;
      return { operation, index, score };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, options.limit ?? 5)
    .map((entry) => entry.operation);
}
