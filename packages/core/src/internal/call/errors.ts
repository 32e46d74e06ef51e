/**
 * The base {@link AgentApiError} and the errors that code loaded at import throws: bad input, missing credentials, a
 * malformed base URL, an option that cannot work, the caller's abort, and a body that does not parse (pagination,
 * loaded at import, throws it for a page it cannot go on from). The errors only a call under way throws (answers,
 * connections, timeouts, bodies too large or off their schema, the ban, Redis) are in `answer-errors.ts`, which
 * loads with the first call: nothing loaded at import may import it. Users import both from the face,
 * `src/errors.ts`.
 *
 * Each constructor only stores what it is given and words its message. Every error carries only redacted data.
 */

import { operationLabel } from './operation-label.js';

/** Base class of every error thrown by the @agent-apis clients. */
export class AgentApiError extends Error {
  override name = 'AgentApiError';
}

/** The caller aborted the request through its AbortSignal. Never retried. */
export class APIUserAbortError extends AgentApiError {
  override name = 'APIUserAbortError';
  /** The operationId when known, otherwise `METHOD /path`. */
  declare readonly operation: string;
  /** `METHOD /path` of the operation. */
  declare readonly route: string;

  constructor(context: { operation: string; route: string }) {
    super(`Request aborted by the caller on ${operationLabel(context)}`);
    this.operation = context.operation;
    this.route = context.route;
  }
}

/** Input of {@link RequestValidationError}. */
export interface RequestValidationProblem {
  /** The operationId of the call that was refused. */
  operation: string;
  /** Path of the offending input, e.g. `query.limit` or `body.items[0].sku`. */
  field: string;
  /** What is wrong, phrased to follow the field name, e.g. `must be between 1 and 100`. */
  reason: string;
}

/** The client refused to send a request whose input breaks the API contract. Nothing was sent. */
export class RequestValidationError extends AgentApiError {
  override name = 'RequestValidationError';
  /** The operationId of the call that was refused. */
  declare readonly operation: string;
  /** Path of the offending input, e.g. `query.limit`. */
  declare readonly field: string;
  /** What is wrong with it. */
  declare readonly reason: string;

  constructor(problem: RequestValidationProblem, options?: ErrorOptions) {
    super(`Invalid request for ${problem.operation}: ${problem.field} ${problem.reason}`, options);
    this.operation = problem.operation;
    this.field = problem.field;
    this.reason = problem.reason;
  }
}

/** Input of {@link MissingCredentialsError}: where credentials could have come from. */
export interface MissingCredentials {
  /** The class that needs them, e.g. `TrustClient`. */
  client: string;
  /** The options that carry credentials; a list stands for options that go together, e.g. `[['login', 'authToken'], 'accessToken']`. */
  options: readonly (string | readonly string[])[];
  /** The environment variables read when the options carry none, grouped the same way. */
  envVars: readonly (string | readonly string[])[];
}

/** `a`, `a and b`; alternatives joined with `or`. */
function describeAlternatives(alternatives: MissingCredentials['options'], quote: (name: string) => string): string {
  return alternatives
    .map((alternative) => (typeof alternative === 'string' ? [alternative] : alternative).map(quote).join(' and '))
    .join(', or ');
}

/**
 * A client was created without credentials: neither its options nor the environment hold them. The message
 * names the options and environment variables to set; it never contains a value.
 */
export class MissingCredentialsError extends AgentApiError {
  override name = 'MissingCredentialsError';
  /** The options that carry credentials. */
  declare readonly options: MissingCredentials['options'];
  /** The environment variables the client reads. */
  declare readonly envVars: MissingCredentials['envVars'];

  constructor(missing: MissingCredentials) {
    const options = describeAlternatives(missing.options, (name) => `\`${name}\``);
    const envVars = describeAlternatives(missing.envVars, (name) => name);
    super(`${missing.client} needs credentials: pass ${options}; or set ${envVars}`);
    this.options = missing.options;
    this.envVars = missing.envVars;
  }
}

/** A base URL mistake found at construction; the message never contains the URL's credentials. */
export class InvalidBaseUrlError extends AgentApiError {
  override name = 'InvalidBaseUrlError';
}

/** A client option that cannot work as given (e.g. response validation whose validators cannot be loaded). */
export class ConfigurationError extends AgentApiError {
  override name = 'ConfigurationError';
}

/**
 * A successful response whose body is not the JSON its operation promises: it does not parse (cut short), or it
 * came as another content type (an HTML error page behind a proxy, say). The
 * parser's own message is left out on purpose: it quotes the start of the body, which may echo a credential.
 */
export class ResponseParseError extends AgentApiError {
  override name = 'ResponseParseError';
  declare readonly operation: string;

  constructor(operation: string, route: string, problem = 'is not valid JSON') {
    super(`Response of ${operation} (${route}) ${problem}`);
    this.operation = operation;
  }
}
