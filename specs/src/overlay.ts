import { readFile } from 'node:fs/promises';
import { exec, type JsonValue } from 'jsonpath-rfc9535';
import { parse as parseYaml } from 'yaml';

/** An OpenAPI Overlay 1.0 document. */
export interface Overlay {
  overlay: string;
  info: { title: string; version: string };
  extends?: string;
  actions: OverlayAction[];
}

export interface OverlayAction {
  target: string;
  description?: string;
  update?: JsonValue;
  remove?: boolean;
}

export class OverlayError extends Error {
  override name = 'OverlayError';
}

type Container = Record<string, JsonValue> | JsonValue[];
type Location = (string | number)[];

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Objects merge key by key, recursively; anything else in the update replaces what was there. */
function merge(target: Record<string, JsonValue>, update: Record<string, JsonValue>): void {
  for (const [key, value] of Object.entries(update)) {
    const current = target[key];
    if (isObject(current) && isObject(value)) merge(current, value);
    else target[key] = clone(value);
  }
}

function nodeAt(root: JsonValue, location: Location): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const key of location) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, JsonValue>)[key];
  }
  return node;
}

function describe(action: OverlayAction, index: number): string {
  return `action #${index + 1} (${action.description ?? 'no description'}) target ${action.target}`;
}

export function validateOverlay(value: unknown): Overlay {
  if (!isObject(value) || typeof value.overlay !== 'string' || !value.overlay.startsWith('1.')) {
    throw new OverlayError('not an OpenAPI Overlay 1.x document (missing "overlay: 1.0.0")');
  }
  if (!isObject(value.info) || typeof value.info.title !== 'string' || typeof value.info.version !== 'string') {
    throw new OverlayError('overlay "info" needs "title" and "version"');
  }
  if (!Array.isArray(value.actions) || value.actions.length === 0) {
    throw new OverlayError('overlay "actions" must be a non-empty list');
  }
  value.actions.forEach((action, index) => {
    if (!isObject(action) || typeof action.target !== 'string') {
      throw new OverlayError(`action #${index + 1} needs a string "target"`);
    }
    if ((action.remove === true) === 'update' in action) {
      throw new OverlayError(
        `${describe(action as unknown as OverlayAction, index)}: give exactly one of "update" or "remove: true"`,
      );
    }
  });
  return value as unknown as Overlay;
}

/**
 * Applies an overlay to a copy of `document` and returns the copy.
 *
 * Semantics (OpenAPI Overlay 1.0): actions run in order; each JSONPath target selects nodes; `update` merges
 * into selected objects (recursively) or is appended to selected arrays; `remove: true` deletes the selected
 * nodes. An action that selects nothing is an error: after an upstream change it means the repair is stale.
 */
export function applyOverlay<T>(document: T, overlay: Overlay): T {
  const result = clone(document) as unknown as JsonValue;
  overlay.actions.forEach((action, index) => {
    const locations: Location[] = [];
    try {
      exec(result, action.target, (_value, path) => locations.push([...path]));
    } catch (cause) {
      throw new OverlayError(`${describe(action, index)}: invalid JSONPath (${(cause as Error).message})`, { cause });
    }
    if (locations.length === 0) {
      throw new OverlayError(`${describe(action, index)}: selects nothing in the document (stale repair?)`);
    }
    if (action.remove) {
      // Delete from the deepest/last location first so array indexes stay valid.
      for (const location of locations.reverse()) {
        if (location.length === 0) throw new OverlayError(`${describe(action, index)}: cannot remove the root`);
        const parent = nodeAt(result, location.slice(0, -1)) as Container;
        const key = location.at(-1) as string | number;
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key as string];
      }
      return;
    }
    for (const location of locations) {
      const node = nodeAt(result, location);
      if (Array.isArray(node)) node.push(clone(action.update as JsonValue));
      else if (isObject(node) && isObject(action.update)) merge(node, action.update);
      else {
        throw new OverlayError(
          `${describe(action, index)}: can only update objects (with an object) or arrays, found ${node === null ? 'null' : typeof node}`,
        );
      }
    }
  });
  return result as unknown as T;
}

/** Reads and checks the overlay document at `file` (YAML or JSON). */
export async function readOverlay(file: string): Promise<Overlay> {
  return validateOverlay(parseYaml(await readFile(file, 'utf8')));
}
