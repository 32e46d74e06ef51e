/**
 * Response validation against the spec's schemas: loaded only by clients that ask for it (`validateResponses`),
 * at their first response to check.
 */

import { ResponseValidationError } from './answer-errors.js';
import type { SchemaLike, ValidatorsModule } from './client-options.js';
import { ConfigurationError } from './errors.js';

/** Where the spec's response check finds its validators: the option as given, and the service's loader. */
export interface SpecValidatorSource {
  validate: true | ValidatorsModule;
  loadValidators: () => Promise<unknown>;
  validatorsEntry: string;
}

/**
 * A `validateResponse` hook of the transport: `schemaFor(operationId)` returns the success-response
 * schema (or undefined to skip, e.g. for non-JSON bodies). It may be async so that schemas load lazily and stay
 * out of bundles that never validate.
 */
export function schemaResponseValidator(
  schemaFor: (operation: string) => SchemaLike | undefined | Promise<SchemaLike | undefined>,
): (response: Response, context: { readonly operation: string }) => Promise<void> {
  return async (response, context) => {
    if (response.status === 204 || !(response.headers.get('content-type') ?? '').includes('json')) return;
    const schema = await schemaFor(context.operation);
    if (!schema) return;
    const body: unknown = await response.clone().json();
    const result = schema.safeParse(body);
    if (!result.success) {
      throw new ResponseValidationError(
        context.operation,
        response.status,
        (result.error?.issues ?? []).map((issue) => ({
          path: issue.path.map(String).join('.'),
          message: issue.message,
        })),
      );
    }
  };
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
 * The check a client runs with `validateResponses`: the module it was given, or the service's generated validators
 * loaded at the first response (a failed load is a {@link ConfigurationError} naming the subpath to pass instead, and
 * is tried again at the next response).
 */
export function specResponseValidator({ validate, loadValidators, validatorsEntry }: SpecValidatorSource) {
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
  return schemaResponseValidator(async (operation) => responseSchema(await validators(), operation));
}
