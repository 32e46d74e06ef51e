/**
 * What every service client accepts, and how those options (plus a service's own extras) become the
 * {@link createTransport} options of its transport.
 */

import { ConfigurationError } from './errors.js';
import type { CreateFetchOptions, TransportHooks } from './fetch.js';
import type { HeadersInput } from './fetch-types.js';
import type { Logger, LogLevel } from './logger.js';
import { type SchemaLike, schemaResponseValidator } from './response-validation.js';

/** Environment variable every client reads its log level from when `logLevel` is not given. */
export const LOG_ENV_VAR = 'AGENT_APIS_LOG';

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

/** The schemas of one operation in a generated `validators.gen.ts`; response validation reads `response`. */
export interface OperationSchemas {
  readonly response?: SchemaLike;
  readonly [schema: string]: unknown;
}

/** The part of a generated `validators.gen.ts` module that response validation reads. */
export interface ValidatorsModule {
  readonly validators: Readonly<Record<string, OperationSchemas>>;
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

/** A loaded module that has the shape of a generated validators module, or a typed error. */
function checkValidatorsModule(module: unknown): ValidatorsModule {
  const validators = (module as { validators?: unknown } | null)?.validators;
  if (typeof validators !== 'object' || validators === null) {
    throw new ConfigurationError('validateResponses: the loaded module has no `validators` export');
  }
  return module as ValidatorsModule;
}

/** The success-response schema of `operation` in a validators module, if it has one. */
function responseSchema({ validators }: ValidatorsModule, operation: string): SchemaLike | undefined {
  return Object.hasOwn(validators, operation) ? validators[operation]?.response : undefined;
}

/**
 * The {@link createTransport} options of a service client: the common options, the `AGENT_APIS_LOG` log level,
 * opt-in response validation against the lazily loaded validators, and the
 * service's extras (secrets to redact, hooks, cache, clock, redirects).
 */
export function clientFetchOptions(options: ClientOptions, service: ServiceTransport): CreateFetchOptions {
  const { loadValidators, validatorsEntry, ...extras } = service;
  const validate = options.validateResponses;
  let loaded: Promise<ValidatorsModule> | undefined;
  const validators = (): Promise<ValidatorsModule> => {
    if (typeof validate === 'object') return Promise.resolve(validate);
    loaded ??= loadValidators().then(checkValidatorsModule, (cause: unknown) => {
      loaded = undefined;
      throw new ConfigurationError(
        `validateResponses: true could not load the generated validators (code that was bundled cannot load them ` +
          `by itself); pass the module instead: validateResponses: await import('${validatorsEntry}')`,
        { cause },
      );
    });
    return loaded;
  };
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
    validateResponse: validate
      ? schemaResponseValidator(async (operation) => responseSchema(await validators(), operation))
      : undefined,
    ...extras,
  };
}
