/**
 * The error of a decide call that waited for a decision it did not ask for itself (another caller's request in
 * flight, another process's scan) and reached its own timeout first: the transport's timeout error, so a caller
 * handles one class however its decision was to come. Loaded only when such a wait times out.
 */

import type { APIConnectionTimeoutError } from '@agent-apis/core';
import { createRequestContext, timeoutError } from '@agent-apis/core/call';

/** An {@link APIConnectionTimeoutError} of `POST /v1/decide` on `baseUrl` after `waitedMs`. */
export function decideTimeoutError(baseUrl: string, waitedMs: number): APIConnectionTimeoutError {
  const request = new Request(`${baseUrl}/v1/decide`, { method: 'POST' });
  return timeoutError(createRequestContext(request, { id: 'decide', route: 'POST /v1/decide' }), waitedMs);
}
