/**
 * The manifest row: everything the project knows about one operation, written per service by
 * `@agent-apis/codegen` (`agent-apis-codegen manifest <service>`) from the final spec. The runtime row
 * ({@link Operation}) is its first part; every other consumer (the tool server's table, the contract suite, the
 * stand-ins, the API references) reads the rest from the manifest and never from an `x-` key of the spec.
 * Types only: nothing here runs.
 */
import type { Operation } from './operations.js';

/**
 * A schema object as the spec writes it (JSON Schema or OpenAPI, may hold `$ref`s). Not the argument checker's
 * subset, which is `JsonSchema` of `@agent-apis/core/call`.
 */
export type SpecSchema = { [keyword: string]: unknown };

/** The contract's safety class (`x-safety`): read changes nothing; write an ordinary record; dangerous the rest. */
export type SafetyClass = 'read' | 'write' | 'dangerous';

/** One parameter as the spec declares it (path, query, header or cookie), its schema as written (may hold `$ref`s). */
export interface ManifestParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly schema: SpecSchema;
  readonly description?: string;
}

/** Where a live run takes a path parameter's value from (see codegen's `manifest/sources.ts`). */
export type InputSource =
  | {
      readonly kind: 'response';
      /** The operation whose answer supplies the value. */
      readonly from: string;
      /** JSON pointer into that answer's body. */
      readonly pointer: string;
      /** What the value names, for `skipped: no <resource> in the live account`. */
      readonly resource: string;
      /** The source's own path parameters, each taken from the target's parameter named here. */
      readonly carry: Readonly<Record<string, string>>;
      /** `link`: an OpenAPI link; `rule`: the list before the parameter; `guess`: a link whose rejection says nothing. */
      readonly declared: 'link' | 'rule' | 'guess';
      /** Set for a cursor: where the vendor documents what the cursor answers. */
      readonly cursor?: string;
    }
  | { readonly kind: 'enum'; readonly value: string }
  | { readonly kind: 'env'; readonly env: string; readonly resource: string };

/** How a resource method returns: `list` walks page/limit pages, `items` is one array, `one` one value. */
export type ResultKind = 'list' | 'items' | 'one';

/** The operation as a resource method (`store.products.variants.create(productId, {...})`). */
export interface ResourceMethod {
  /** Resource chain under the client, e.g. `['products', 'variants']`. */
  readonly resource: readonly string[];
  /** Method name, e.g. `create`. */
  readonly method: string;
  /** Path parameters in template order, with their TypeScript type. */
  readonly pathParams: readonly { readonly name: string; readonly type: 'number' | 'string' }[];
  /** Key of the one resource the request body wraps (`product`), or `''`. */
  readonly bodyKey: string;
  /** Array fields of the body whose records each wrap one resource (`{ variants: 'variant' }`). */
  readonly nestedKeys: Readonly<Record<string, string>>;
  /** An `update…` sent with PUT or PATCH: every field of its params is optional. */
  readonly patches: boolean;
  /** Key of the one resource the answer (or each record of an array answer) wraps, or `''`. */
  readonly resultKey: string;
  readonly kind: ResultKind;
  /** Whether the method takes a params object (a body, or query parameters besides `page`). */
  readonly takesParams: boolean;
  /** Whether that params object is required. */
  readonly paramsRequired: boolean;
}

/** Every fact of one operation: the runtime row plus what the generators, tools, suite and stand-ins read. */
export interface ManifestOperation extends Operation {
  /** The first sentence of the summary (or description), or `METHOD /path`. */
  readonly summary: string;
  readonly safety: SafetyClass;
  /** `x-spends-quota`: a read that spends the key's quota. */
  readonly spendsQuota: boolean;
  /** `x-provisional`: the spec's description of the operation is itself a guess. */
  readonly provisional: boolean;
  /** Every parameter the operation takes (path item's and its own), in declaration order. */
  readonly parameters: readonly ManifestParameter[];
  /** `{ <path and query parameters>, body? }` as one self-contained JSON Schema (no `$ref`). */
  readonly inputSchema: SpecSchema;
  /** The JSON request body: required or not, its schema as written, the first published example. */
  readonly body?: { readonly required: boolean; readonly schema: SpecSchema; readonly example?: { value: unknown } };
  /** The lowest 2xx status the operation declares. */
  readonly successStatus: number;
  /** Schema of the success answer's JSON body, as written. */
  readonly successSchema?: SpecSchema;
  /** Whether the success answer publishes an example. */
  readonly successHasExample: boolean;
  /** Declared 4xx/5xx statuses, ascending. */
  readonly errorStatuses: readonly number[];
  /** Security alternatives (see codegen); `[]` means none. */
  readonly security: readonly (readonly string[])[];
  /** Where each path parameter's live value comes from (`undefined`: no source). */
  readonly sources: Readonly<Record<string, InputSource | undefined>>;
  /** `x-contract-cursor`: the path parameter that is a cursor, and where the vendor documents it. */
  readonly cursor?: { readonly parameter: string; readonly source: string };
  /** The answer record's identity field, when the spec names one (`x-identity-key`). */
  readonly identityKey?: string;
  /** The operation as a resource method. */
  readonly resourceMethod: ResourceMethod;
  /** Where the operation is documented: its `externalDocs` URL, else `<spec file>#<JSON pointer>`. */
  readonly source: string;
}

/** Where an error answer of the service carries its message (JSON pointers into the body), from its error schema. */
export interface ErrorBodyShape {
  /** e.g. `/error/message` (trust), `/error` (directory), `/message`. */
  readonly message: string;
  /** e.g. `/error/code`, when the body carries a machine-readable code. */
  readonly code?: string;
}

/** One service's manifest, as `agent-apis-codegen manifest <service>` writes it. */
export interface Manifest {
  readonly service: string;
  /** The final spec it was read from (repository-relative) and the sha256 of that spec's source. */
  readonly spec: { readonly file: string; readonly sourceSha256: string };
  /** The error body shape, when the spec documents one. */
  readonly errorBody?: ErrorBodyShape;
  readonly operations: readonly ManifestOperation[];
}
