import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readLock } from './lock.ts';
import { nameByRule, namingActions, operationName, overrides } from './naming.ts';
import { listOperations, type OpenApiDocument } from './openapi.ts';
import { applyOverlay, type Overlay, validateOverlay } from './overlay.ts';
import { findPathConflicts } from './paths.ts';
import { specPaths } from './services.ts';
import { readPinned } from './source.ts';
import { MIRROR } from './test-support.ts';

describe('operationName', () => {
  it.each([
    ['GET', '/products.json', 'listProducts'],
    ['POST', '/products.json', 'createProduct'],
    ['GET', '/products/{id}.json', 'getProduct'],
    ['PUT', '/products/{id}.json', 'updateProduct'],
    ['DELETE', '/products/{id}.json', 'deleteProduct'],
    ['GET', '/products/count.json', 'countProducts'],
    ['GET', '/products/search.json', 'searchProducts'],
    ['GET', '/products/status/{status}.json', 'listProductsByStatus'],
    ['GET', '/products/status/{status}/count.json', 'countProductsByStatus'],
    ['GET', '/products/category/{category_id}.json', 'listProductsByCategory'],
    ['GET', '/orders/after/{id}.json', 'listOrdersAfter'],
    ['POST', '/products/{id}/variants.json', 'createProductVariant'],
    ['GET', '/products/{id}/variants.json', 'listProductVariants'],
    ['GET', '/products/{id}/images/count.json', 'countProductImages'],
    ['DELETE', '/products/{id}/options/{option_id}/values/{value_id}.json', 'deleteProductOptionValue'],
    ['GET', '/customers/{id}/orders/status/{status}.json', 'listCustomerOrdersByStatus'],
    ['GET', '/products/reviews/{review_id}.json', 'getProductReview'],
    ['GET', '/categories/{id}.json', 'getCategory'],
    ['POST', '/taxes.json', 'createTax'],
    ['GET', '/countries/{country_code}/regions/{region_code}/municipalities.json', 'listCountryRegionMunicipalities'],
    ['POST', '/custom_fields/{id}/select_options.json', 'createCustomFieldSelectOption'],
    ['GET', '/store/info.json', 'getStoreInfo'],
    ['GET', '/fulfillments/{id}/label.json', 'getFulfillmentLabel'],
    ['GET', '/customers/{id}/fields', 'listCustomerFields'],
    ['PUT', '/products_locations', 'updateProductsLocations'],
    ['get', '/hooks/{id}.json', 'getHook'],
  ])('%s %s → %s', (method, path, expected) => {
    expect(operationName(method, path)).toBe(expected);
  });

  it('lets an override win over the rule', () => {
    expect(nameByRule('GET', '/products/reviews.json')).toBe('listProductReviews');
    expect(operationName('GET', '/products/reviews.json')).toBe('listAllProductReviews');
  });

  it('refuses a path that names no resource', () => {
    expect(() => operationName('GET', '/{id}.json')).toThrow(/names no resource/);
  });
});

describe('the store overlay on the pinned upstream document', () => {
  let overlay: Overlay;
  let document: OpenApiDocument;

  beforeAll(async () => {
    const paths = specPaths('store');
    const pinned = await readPinned(await readLock(paths.lock), { mirror: MIRROR });
    const upstream = JSON.parse(new TextDecoder().decode(pinned.bytes)) as OpenApiDocument;
    overlay = validateOverlay(parse(await readFile(paths.overlay, 'utf8')));
    document = applyOverlay(upstream, overlay);
  });

  it('names all 179 operations, each uniquely, with the name the rule gives its final path', () => {
    const operations = listOperations(document);
    expect(operations).toHaveLength(179);
    const ids = operations.map(({ method, path, operation }) => {
      expect(operation.operationId, `${method.toUpperCase()} ${path}`).toBe(operationName(method, path));
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(179);
  });

  it('holds exactly the naming actions that namingActions computes for the final document', () => {
    const written = overlay.actions
      .filter((action) => typeof action.update === 'object' && action.update !== null && 'operationId' in action.update)
      .map(({ target, update }) => ({ target, update }));
    expect(written).toEqual(namingActions(document));
  });

  it('has no stale or needless override', () => {
    const finalOperations = new Set(
      listOperations(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`),
    );
    for (const [key, name] of Object.entries(overrides)) {
      const [method = '', path = ''] = key.split(' ');
      expect(finalOperations.has(key), `${key} is not an operation of the final document`).toBe(true);
      expect(nameByRule(method, path), `${key}: the rule already gives ${name}`).not.toBe(name);
    }
  });

  it('leaves no colliding, ambiguous or mismatched path templates', () => {
    expect(findPathConflicts(document)).toEqual([]);
  });

  it('prints the same actions from the command line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'naming-'));
    try {
      const file = join(dir, 'store.openapi.json');
      await writeFile(file, JSON.stringify(document));
      const script = fileURLToPath(new URL('./naming.ts', import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, [script, file]);
      expect(parse(stdout)).toEqual(namingActions(document));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
