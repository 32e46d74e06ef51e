/**
 * What a successful answer becomes: its body, read whole by the transport, parsed as its operation's spec says.
 */

import type { Operation } from '../../operations.js';
import { ResponseParseError } from './errors.js';
import type { BufferedResponse } from './transport.js';

const EMPTY = new Uint8Array(0);

const decoder = new TextDecoder();

/** The body as the operation promises it: JSON when its spec (or else the content type) says so, text otherwise. */
function parseBody(response: Response, text: string, operation: Operation, route: string): unknown {
  const json = operation.successJson !== false || /[/+]json\b/i.test(response.headers.get('content-type') ?? '');
  if (text === '') return json ? {} : '';
  if (!json) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseParseError(operation.id, route);
  }
}

/** A call's buffered answer as its data: the bytes decoded, then parsed per {@link parseBody}; the bytes let go. */
export function parseBuffered(sent: BufferedResponse, operation: Operation, route: string): unknown {
  const text = sent.bytes.byteLength === 0 ? '' : decoder.decode(sent.bytes);
  // The bytes are not needed once decoded: let them go before a large body is parsed.
  sent.bytes = EMPTY;
  return parseBody(sent.response, text, operation, route);
}
