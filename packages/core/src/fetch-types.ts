/**
 * The fetch types the public API names that come with the DOM lib only, declared here so that the published
 * `.d.ts` files compile for a Node-only consumer (`lib: ["ES2023"]`, `types: ["node"]`, `skipLibCheck: false`).
 */

/** Headers as every option and call takes them: a `Headers`, `[name, value]` pairs, or a record. */
export type HeadersInput = Headers | [string, string][] | Record<string, string>;
