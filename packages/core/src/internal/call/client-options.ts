/**
 * What every service client accepts ({@link ClientOptions}), what a service adds to build its transport
 * ({@link ServiceTransport}), and the shape of the generated validators that `validateResponses` takes. Types only:
 * `internal/call/transport-options.ts` turns them into the transport's options at the first call.
 */

import type { HeadersInput } from '../../operations.js';
import type { Logger, LogLevel } from './logger.js';
import type { CreateFetchOptions, TransportHooks } from './transport.js';

/** The part of a zod schema response validation uses (anything with the same `safeParse`). */
export interface SchemaLike {
  safeParse(value: unknown): {
    success: boolean;
    /** Set when `success` is false. */
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } | undefined;
  };
}

/** The schemas of one operation in a generated `validators.gen.ts`; response validation reads `response`. */
export interface OperationSchemas {
  readonly response?: SchemaLike;
  readonly [schema: string]: unknown;
}

/** The part of a generated `validators.gen.ts` module that response validation reads. */
export interface ValidatorsModule {
  readonly validators: Readonly<Record<string, OperationSchemas>>;
}

/** Options common to every service client; each service adds its own (credentials, caching, …). */
export interface ClientOptions {
  /** Root URL of the API; each service documents its default. */
  baseUrl?: string | undefined;
  /** The `fetch` to send requests with (default `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch | undefined;
  /**
   * The whole call's deadline in ms, retries and the waits between them included (default 60 000). A retry whose
   * wait (`Retry-After` or backoff) would end past it is not waited for: the call fails at once with the answer's
   * error, whose `retryAfter` says what the server asked for.
   */
  timeout?: number | undefined;
  /** Retries of a failed idempotent request after the first attempt (default 2). */
  maxRetries?: number | undefined;
  /** Longest `Retry-After` waited out, in ms (default 60 000); a longer one fails the call at once, like the deadline. */
  maxRetryAfter?: number | undefined;
  /** Headers sent with every request that does not set them itself. */
  defaultHeaders?: HeadersInput | undefined;
  /**
   * Lets a client with credentials call a plain `http://` base URL on a host that is not loopback (default false:
   * the first call fails with `InvalidBaseUrlError` before sending, since the credentials would cross the network
   * in clear).
   */
  allowInsecureHttp?: boolean | undefined;
  /** Destination of log lines (default `console`); lines are redacted first. */
  logger?: Logger | undefined;
  /** Log level (default: the `AGENT_APIS_LOG` environment variable, else `off`). */
  logLevel?: LogLevel | undefined;
  /**
   * Check every successful JSON response against the spec's schema; a mismatch throws `ResponseValidationError`.
   * `true` loads the package's generated validators at the first response to check (Node, Bun, Deno); where code is
   * bundled (Workers, browsers) pass the module itself: `validateResponses: await import('@agent-apis/<pkg>/validators')`
   * or a static `import * as validators from '@agent-apis/<pkg>/validators'`.
   */
  validateResponses?: boolean | ValidatorsModule | undefined;
  /** Observers of every call: `onRequest`, `onResponse`, `onRetry` (attempt, delay, reason). */
  hooks?: TransportHooks | undefined;
  /** Largest response body read, in bytes after decompression (default 8 MiB); a bigger one is refused. */
  maxResponseBytes?: number | undefined;
}

/** What a service adds to the {@link ClientOptions} to build its transport. */
export interface ServiceTransport
  extends Pick<
    CreateFetchOptions,
    'redactSecrets' | 'beforeRequest' | 'afterResponse' | 'cache' | 'now' | 'redirects' | 'retryPolicy'
  > {
  /**
   * Loads the generated validators, e.g. `() => import(VALIDATORS_MODULE)` with `VALIDATORS_MODULE = '@agent-apis/store/validators'`. It runs only when
   * `validateResponses` is `true`, at the first response to check. The specifier is not a literal on purpose: a
   * bundler then leaves the generated validators (and zod) out of the bundle instead of wrapping them in lazy
   * initialisers, which broke other zod users in the same bundle (esbuild, e.g. the MCP SDK in a Worker).
   */
  loadValidators: () => Promise<unknown>;
  /** The package's validators subpath (`@agent-apis/store/validators`), named in the error when loading fails. */
  validatorsEntry: string;
}
