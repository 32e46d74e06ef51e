/**
 * The safety class of every agent tool (`specs/<service>/mcp-tools.contract.json`), and where a live run takes
 * a tool's record ids from. The rule for `from`: the value is the first `id` found, depth first, in the named
 * read tool's answer (its structured content, else the JSON of its first text block), so no invented id is
 * sent to a live tool server.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ToolClass {
  safety: 'read' | 'write' | 'dangerous';
  /** Argument name → the read tool whose answer supplies it. */
  from?: Record<string, string>;
  /**
   * A create tool: the argument carrying the run marker, fixed arguments, its update/delete tools, and how the
   * record is read back (`get`: a tool taking its `id`; else `list`, the record found there by id).
   */
  creates?: {
    marker: string;
    arguments: Record<string, unknown>;
    update?: string;
    delete: string;
    get?: string;
    list: string;
    /** Arguments of the list call that narrow it to records like the run's (`status: disabled`, a large page). */
    listArguments?: Record<string, unknown>;
  };
}

export async function readToolClasses(service: 'store' | 'directory'): Promise<Record<string, ToolClass>> {
  const file = join(import.meta.dirname, '..', '..', '..', 'specs', service, 'mcp-tools.contract.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { tools: Record<string, ToolClass> }).tools;
}

/** The first `id` in `value`, depth first (objects in key order, arrays in order). */
export function firstId(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstId(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.id === 'number' || typeof record.id === 'string') return record.id;
  for (const child of Object.values(record)) {
    const found = firstId(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first object in `value` (depth first, as `firstId` walks) for which `matches` holds. */
export function findRecord(
  value: unknown,
  matches: (record: Record<string, unknown>) => boolean,
): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && matches(value as Record<string, unknown>)) return value as Record<string, unknown>;
  for (const child of Object.values(value)) {
    const found = findRecord(child, matches);
    if (found) return found;
  }
  return undefined;
}

/** What a tool answered, as data: its structured content, else the JSON of its first text block. */
export function toolAnswer(result: {
  structuredContent?: unknown;
  content?: { type: string; text?: string }[];
}): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = result.content?.find((block) => block.type === 'text')?.text;
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
