/** How errors and logs name the operation of a call. */

/** `getProduct (GET /v1/products/{id}.json)`, or just the route when no operationId is known. */
export function operationLabel(context: { operation: string; route: string }): string {
  return context.operation === context.route ? context.route : `${context.operation} (${context.route})`;
}
