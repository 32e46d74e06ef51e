/**
 * Operation rows for core's tests of input checks, binding and request matching: a products resource with a query
 * of every constraint kind, a path template and a required body. They are shaped like `OperationShape` of
 * `@agent-apis/core` but typed by their literals alone, so this package depends on no workspace package (core's
 * tests import it); passing them to core's functions checks the shape.
 */

/** `GET /products.json`: `q` required, `limit` a bounded integer, `status` an enum. */
export const listProducts = {
  method: 'GET',
  path: '/products.json',
  pathParams: [],
  query: {
    limit: { required: false, type: 'integer', minimum: 1, maximum: 100 },
    status: { required: false, type: 'string', enum: ['available', 'disabled'] },
    q: { required: true, type: 'string' },
  },
  bodyRequired: false,
} as const;

/** `GET /products/{id}.json`: one path parameter, no query. */
export const getProduct = {
  method: 'GET',
  path: '/products/{id}.json',
  pathParams: ['id'],
  query: {},
  bodyRequired: false,
} as const;

/** `POST /products.json`: a body is required. */
export const createProduct = {
  method: 'POST',
  path: '/products.json',
  pathParams: [],
  query: {},
  bodyRequired: true,
} as const;
