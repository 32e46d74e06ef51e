/**
 * The masking half of the errors, loaded with the call path: the request context an error is built from (the
 * operation, the redacted request, the secrets to mask) and the reading of a failed response into its
 * {@link APIError} subclass.
 */

import { type APIError, errorClassForStatus, type OperationInfo, type RequestContext } from './errors.js';
import { describeRequest, redactError, redactHeaders, redactText, redactValue, secretsFromRequest } from './redact.js';

/** Builds the {@link RequestContext} of a request: names the operation and collects the secrets it carries. */
export function createRequestContext(
  request: Request,
  operation: OperationInfo = {},
  secrets: readonly string[] = [],
): RequestContext {
  const allSecrets = [...secrets, ...secretsFromRequest(request)];
  const route = operation.route ?? `${request.method.toUpperCase()} ${new URL(request.url).pathname}`;
  return {
    operation: operation.id ?? route,
    route,
    request: describeRequest(request, allSecrets),
    secrets: allSecrets,
    ...(operation.basePath ? { basePath: operation.basePath } : {}),
    redactCause: (cause) =>
      cause instanceof Error
        ? redactError(cause, allSecrets)
        : redactValue(cause, allSecrets, { maskCredentialKeys: true }),
  };
}

/**
 * Reads the body of a failed response (JSON when it parses, text otherwise), masks secrets in it and in the
 * headers, and returns the {@link APIError} subclass that matches the status.
 */
export async function apiErrorFromResponse(response: Response, context: RequestContext): Promise<APIError> {
  const text = await response.text().catch(() => '');
  const errorClass = errorClassForStatus(response.status);
  return new errorClass(context, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(redactHeaders(response.headers, context.secrets)),
    body: parseBody(text, context.secrets),
  });
}

function parseBody(text: string, secrets: readonly string[]): unknown {
  if (text === '') return undefined;
  try {
    return redactValue(JSON.parse(text), secrets);
  } catch {
    return redactText(text, secrets);
  }
}
