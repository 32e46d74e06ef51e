import { SERVICE_NAMES } from '@agent-apis/specs/services';
import { describe, expect, it } from 'vitest';
import { readFinalSpec } from '../final-spec.ts';
import { pathInputSources } from './sources.ts';

const documents = Object.fromEntries(
  await Promise.all(SERVICE_NAMES.map(async (service) => [service, (await readFinalSpec(service)).document] as const)),
);

describe('path inputs of live runs', () => {
  it.each(SERVICE_NAMES)(
    '%s: every path parameter of every operation has a source (link, rule, enum or env)',
    (service) => {
      const missing = [...pathInputSources(documents[service]!)].flatMap(([operation, sources]) =>
        Object.entries(sources)
          .filter(([, source]) => !source)
          .map(([parameter]) => `${operation}.${parameter}`),
      );
      expect(missing).toEqual([]);
    },
  );

  it('marks the cursors the overlay names (x-contract-cursor), with their source; lookups are no cursors', () => {
    const store = pathInputSources(documents.store!);
    expect(store.get('listOrdersAfter')?.id).toMatchObject({
      from: 'listOrders',
      cursor: expect.stringMatching(/GET \/orders\/after\/5000 will return Order 5001.*404 'Order Not Found\.'/),
    });
    expect(store.get('listProductsAfter')?.id).toMatchObject({ cursor: expect.stringMatching(/Product Not Found/) });
    expect(store.get('getOrder')?.id).not.toHaveProperty('cursor');
  });

  it('derives nested lookups by the rule, carrying the parent parameter by position', () => {
    const store = pathInputSources(documents.store!);
    expect(store.get('getProduct')?.id).toMatchObject({
      from: 'listProducts',
      pointer: '/0/product/id',
      declared: 'rule',
    });
    expect(store.get('getProductVariant')).toMatchObject({
      id: { from: 'listProducts', pointer: '/0/product/id' },
      variant_id: { from: 'listProductVariants', pointer: '/0/variant/id', carry: { id: 'id' }, resource: 'variant' },
    });
    expect(store.get('updateProductField')?.field_id).toMatchObject({
      from: 'listProductFields',
      carry: { id: 'product_id' },
    });
    expect(store.get('getCountryRegion')).toMatchObject({
      country_code: { from: 'listCountries', pointer: '/0/code', resource: 'country' },
      region_code: { from: 'listCountryRegions', pointer: '/0/code', carry: { country_code: 'country_code' } },
    });
  });

  it('takes declared links, documented enum values and operator-supplied values where the rule does not apply', () => {
    const store = pathInputSources(documents.store!);
    expect(store.get('getCustomerByEmail')?.email).toMatchObject({
      from: 'listCustomers',
      pointer: '/0/customer/email',
      declared: 'link',
    });
    expect(store.get('listProductsByStatus')?.status).toEqual({ kind: 'enum', value: 'available' });
    expect(store.get('getAppInstallStatus')?.code).toEqual({ kind: 'env', env: 'STORE_APP_CODE', resource: 'app' });
    const directory = pathInputSources(documents.directory!);
    expect(directory.get('getMcpServer')).toMatchObject({
      owner: { from: 'listMcpServers', pointer: '/results/0/owner', resource: 'mcp server' },
      repo: { from: 'listMcpServers', pointer: '/results/0/repo' },
    });
  });
});
