import { describe, expect, it } from 'vitest';
import { exportedConstNames, mapValidators, renderValidatorsModule } from './validators.ts';

describe('mapValidators', () => {
  it("maps each operation's path, query, body and response schemas by orval's names", () => {
    const zodExports = exportedConstNames(
      [
        'export const getProductParams = 1;',
        'export const GetProductParams = zod.object({',
        'export const GetProductQueryParams = zod.object({',
        'export const GetProductResponseItem = zod.object({',
        'export const GetProductResponse = zod.array(GetProductResponseItem)',
        'export const CreateProductBody = zod.object({',
      ].join('\n'),
    );
    expect(mapValidators(['getProduct', 'createProduct', 'ping'], zodExports)).toEqual({
      getProduct: { path: 'GetProductParams', query: 'GetProductQueryParams', response: 'GetProductResponse' },
      createProduct: { body: 'CreateProductBody' },
      ping: {},
    });
  });

  it('fails when a schema matches no operationId', () => {
    expect(() => mapValidators(['get_product'], ['GetProductResponse'])).toThrow(
      'zod schemas that match no operationId',
    );
  });

  it('renders the map against the zod module', () => {
    const source = renderValidatorsModule({ getProduct: { response: 'GetProductResponse' }, ping: {} }, './zod/s.js');
    expect(source).toContain("import * as schemas from './zod/s.js';");
    expect(source).toContain('  getProduct: { response: schemas.GetProductResponse },\n  ping: {},\n');
  });
});
