// Placeholder entry point: re-exports the generated SDK until the hand-written client layer is built on it.

export { type OperationDescriptor, type OperationId, operations } from './gen/operations.gen.js';
export { type Client, type Config, createClient, createConfig } from './gen/sdk/client/index.gen.js';
export * from './gen/sdk/index.gen.js';
export { type OperationValidators, validators } from './gen/validators.gen.js';
