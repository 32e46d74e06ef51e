import { readFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { listOperations, type OpenApiDocument } from './openapi.ts';

/**
 * operationIds for the store API, derived from method + path so that they stay stable across upstream updates.
 *
 * The rule: drop the `.json` suffix and read the path as a chain of resources. Every resource before the last
 * names its parent in the singular (`/products/{id}/variants` → `ProductVariant…`). A filter pair such as
 * `status/{status}` adds a suffix (`ByStatus`); a trailing `count` or `search` is the verb itself.
 * Otherwise the verb comes from the method and from whether the path ends at one item (`{param}`) or at a
 * collection: item → get / update (PUT, PATCH) / delete; collection → list / create (POST) / update / delete.
 * The last resource is singular for an item or a create, plural otherwise, and a GET of a collection whose
 * name is not plural (`info`, `label`, `balance`) is a `get`. Where the rule reads badly, `overrides` wins.
 */
export function operationName(method: string, path: string): string {
  return overrides[`${method.toUpperCase()} ${path}`] ?? nameByRule(method, path);
}

/** A path read as a chain of resources, as the rule reads it (`.json` dropped). */
export interface PathReading {
  /** The resource segments, in order (`/products/{id}/variants` → `products`, `variants`). */
  resources: string[];
  /** Suffixes of `<filter>/{param}` pairs, e.g. `ByStatus`. */
  suffix: string;
  /** A trailing `count` or `search`. */
  action: string | undefined;
  /** Whether the path ends at one item (`{param}`). */
  endsAtItem: boolean;
}

export function readPath(path: string): PathReading {
  const segments = path
    .replace(/\.json$/, '')
    .split('/')
    .filter((segment) => segment !== '');
  const reading: PathReading = { resources: [], suffix: '', action: undefined, endsAtItem: false };
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const next = segments[i + 1];
    if (isTemplate(segment)) {
      reading.endsAtItem = true;
      continue;
    }
    reading.endsAtItem = false;
    const filter = FILTER_SUFFIXES[segment];
    if (filter && next !== undefined && isTemplate(next)) {
      reading.suffix += filter;
      i++;
    } else if (i === segments.length - 1 && ACTION_SEGMENTS.has(segment)) {
      reading.action = segment;
    } else {
      reading.resources.push(segment);
    }
  }
  return reading;
}

/** The rule alone, without `overrides`. */
export function nameByRule(method: string, path: string): string {
  const httpMethod = method.toLowerCase();
  const { resources, suffix, action, endsAtItem } = readPath(path);

  const last = resources.at(-1);
  if (last === undefined) throw new Error(`cannot name ${method} ${path}: it names no resource`);
  const parents = resources.slice(0, -1).map((resource) => pascalCase(singular(resource)));

  let verb: string;
  let singularNoun: boolean;
  if (action) {
    verb = action;
    singularNoun = false;
  } else if (endsAtItem) {
    verb = ITEM_VERBS[httpMethod] ?? httpMethod;
    singularNoun = true;
  } else {
    verb = COLLECTION_VERBS[httpMethod] ?? httpMethod;
    singularNoun = verb === 'create';
    if (verb === 'list' && singular(last) === last) verb = 'get';
  }
  const noun = pascalCase(singularNoun ? singular(last) : last);
  return `${verb}${parents.join('')}${noun}${suffix}`;
}

/** Where the rule reads badly, keyed by `METHOD /final/path` (after the overlay's path repairs). */
export const overrides: Readonly<Record<string, string>> = {
  // The segment is an app code and the answer is that app's JsApps, not one JsApp.
  'GET /jsapps/{code}.json': 'listJsappsByApp',
  // `install_status` ends in "s" but is one status.
  'GET /apps/{code}/install_status.json': 'getAppInstallStatus',
  // One object holding the start and end of a billing cycle.
  'GET /apps/{code}/billing_cycle_dates.json': 'getAppBillingCycleDates',
  'GET /apps/{code}/check_billing_cycle_order.json': 'checkAppBillingCycleOrder',
  // Reviews across all products; `listProductReviews` is the reviews of one product.
  'GET /products/reviews.json': 'listAllProductReviews',
  // A quote for a fulfillment, not a stored "rate" resource.
  'POST /fulfillments/rates.json': 'calculateFulfillmentRates',
  // The email identifies one customer.
  'GET /customers/email/{email}.json': 'getCustomerByEmail',
  // Membership changes, not new customers.
  'POST /customer_categories/{id}/customers.json': 'addCustomersToCustomerCategory',
  'DELETE /customer_categories/{id}/customers/{customer_id}.json': 'removeCustomerFromCustomerCategory',
  // Creates a new store for the account.
  'POST /store/setup.json': 'createStore',
};

/** `<segment>/{param}` pairs that filter the collection before them instead of naming a sub-resource. */
const FILTER_SUFFIXES: Readonly<Record<string, string>> = {
  status: 'ByStatus',
  category: 'ByCategory',
  email: 'ByEmail',
  after: 'After',
};

const ACTION_SEGMENTS: ReadonlySet<string> = new Set(['count', 'search']);

const ITEM_VERBS: Readonly<Record<string, string>> = {
  get: 'get',
  put: 'update',
  patch: 'update',
  delete: 'delete',
  post: 'create',
};

const COLLECTION_VERBS: Readonly<Record<string, string>> = {
  get: 'list',
  post: 'create',
  put: 'update',
  patch: 'update',
  delete: 'delete',
};

function isTemplate(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

/** English singular of the last word of a snake_case name: categories → category, taxes → tax. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, 'y');
  if (/(x|ch|sh|ss)es$/.test(name)) return name.replace(/es$/, '');
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name;
}

export function pascalCase(name: string): string {
  return name
    .split(/[_-]/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export interface NamingAction {
  target: string;
  update: { operationId: string };
}

/** RFC 9535 name selector for a member name. */
function quoteMember(name: string): string {
  return `'${name.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** One overlay action per operation of `document`, setting the operationId the rule gives its path. */
export function namingActions(document: OpenApiDocument): NamingAction[] {
  return listOperations(document).map(({ method, path }) => ({
    target: `$.paths[${quoteMember(path)}].${method}`,
    update: { operationId: operationName(method, path) },
  }));
}

/** `node src/naming.ts <final-document.json>` prints the naming actions as YAML, ready for overlay.yaml. */
async function main(args: string[]): Promise<number> {
  const [file] = args;
  if (!file) {
    console.error('usage: node src/naming.ts <final-document.json>');
    return 2;
  }
  const document = JSON.parse(await readFile(file, 'utf8')) as OpenApiDocument;
  process.stdout.write(stringify(namingActions(document), { lineWidth: 0 }));
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
