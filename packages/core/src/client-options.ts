/**
 * What every service client accepts, and how those options (plus a service's own extras) become the
 * {@link createTransport} options of its transport.
 */

import { LOG_ENV_VAR } from './env.js';
import type { CreateFetchOptions, TransportHooks } from './fetch.js';
import type { HeadersInput } from './fetch-types.js';
import { ConfigurationError } from './input-errors.js';

export { LOG_ENV_VAR } from './env.js';

import type { Logger, LogLevel } from './logger.js';
import type { SpecValidatorSource, ValidatorsModule } from './schema-validation.js';

export type { OperationSchemas, ValidatorsModule } from './schema-validation.js';

/** Options common to every service client; each service adds its own (credentials, caching, …). */
export interface ClientOptions {
  /** Root URL of the API; each service documents its default. */
  baseUrl?: string | undefined;
  /** The `fetch` to send requests with (default `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch | undefined;
  /** Per-attempt timeout in ms (default 60 000). */
  timeout?: number | undefined;
  /** Retries of a failed idempotent request after the first attempt (default 2). */
  maxRetries?: number | undefined;
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
   * Loads the generated validators, e.g. `() => import(VALIDATORS_MODULE)` with `VALIDATORS_MODULE = './gen/validators.gen.js'`. It runs only when
   * `validateResponses` is `true`, at the first response to check. The specifier is not a literal on purpose: a
   * bundler then leaves the generated validators (and zod) out of the bundle instead of wrapping them in lazy
   * initialisers, which broke other zod users in the same bundle (esbuild, e.g. the MCP SDK in a Worker).
   */
  loadValidators: () => Promise<unknown>;
  /** The package's validators subpath (`@agent-apis/store/validators`), named in the error when loading fails. */
  validatorsEntry: string;
}

/**
 * The {@link createTransport} options of a service client: the common options, the `AGENT_APIS_LOG` log level,
 * opt-in response validation against the lazily loaded validators, and the
 * service's extras (secrets to redact, hooks, cache, clock, redirects).
 */
export function clientFetchOptions(options: ClientOptions, service: ServiceTransport): CreateFetchOptions {
  const { loadValidators, validatorsEntry, ...extras } = service;
  const validate = options.validateResponses;
  return {
    fetch: options.fetch,
    timeout: options.timeout,
    maxRetries: options.maxRetries,
    defaultHeaders: options.defaultHeaders,
    logger: options.logger,
    logLevel: options.logLevel,
    logEnvVar: LOG_ENV_VAR,
    hooks: options.hooks,
    maxResponseBytes: options.maxResponseBytes,
    validateResponse: validate ? lazySpecValidator({ validate, loadValidators, validatorsEntry }) : undefined,
    ...extras,
  };
}

/**
 * The spec's response check, whose code (and the generated validators) loads with the first response to check, so
 * a client that never validates does not carry it.
 */
function lazySpecValidator(source: SpecValidatorSource): NonNullable<CreateFetchOptions['validateResponse']> {
  let check: Promise<NonNullable<CreateFetchOptions['validateResponse']>> | undefined;
  return async (response, context) => {
    check ??= import('./schema-validation.js').then(
      (module) => module.specResponseValidator(source),
      (cause: unknown) => {
        check = undefined;
        throw new ConfigurationError('validateResponses: the response validation module could not be loaded', {
          cause,
        });
      },
    );
    return (await check)(response, context);
  };
}
