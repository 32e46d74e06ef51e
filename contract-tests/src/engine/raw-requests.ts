/**
 * What a raw request of a live check changes in the client's own call, and nothing else: the input rules lifted
 * (negative_data_rejection sends what the client would refuse), or the credentials left out (ignored_auth). Path
 * and query serialisation and every other header stay the client's.
 */
import type { Operation } from '@agent-apis/core';
import { isCredentialQueryParam } from '@agent-apis/core/call';
import { isCredentialHeader } from '@agent-apis/core/service';

/** The operation with its input rules lifted (what a raw request needs), serialisation rules kept. */
export function withoutInputRules(operation: Operation): Operation {
  const query = Object.fromEntries(
    Object.entries(operation.query ?? {}).map(([name, rule]) => [
      name,
      { type: 'unknown' as const, ...(rule.explode === false ? { explode: false } : {}) },
    ]),
  );
  return {
    id: operation.id,
    method: operation.method,
    path: operation.path,
    query,
    ...(operation.successJson === false ? { successJson: false } : {}),
  };
}

/** `fetch` arguments without any credential header or credential query parameter; how many were removed. */
export async function withoutCredentials(
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
): Promise<{ url: string; init: RequestInit; removed: number }> {
  const request = new Request(input, init);
  const headers = new Headers();
  let removed = 0;
  request.headers.forEach((value, name) => {
    if (isCredentialHeader(name)) removed++;
    else headers.set(name, value);
  });
  const url = new URL(request.url);
  for (const name of [...url.searchParams.keys()]) {
    if (isCredentialQueryParam(name)) {
      url.searchParams.delete(name);
      removed++;
    }
  }
  const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.text();
  return { url: url.href, init: { method: request.method, headers, ...(body ? { body } : {}) }, removed };
}
