/**
 * How a client's options (plus its service's extras) become the {@link createTransport} options of its transport:
 * the common options, the `AGENT_APIS_LOG` log level, and opt-in response validation loaded at the first response
 * to check.
 */

import type { ClientOptions, ServiceTransport } from './client-options.js';
import { LOG_ENV_VAR } from './env.js';
import { ConfigurationError } from './errors.js';
import type { SpecValidatorSource } from './schema-validation.js';
import type { CreateFetchOptions } from './transport.js';

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
    retryPolicy: options.maxRetryAfter === undefined ? undefined : { maxRetryAfterMs: options.maxRetryAfter },
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
