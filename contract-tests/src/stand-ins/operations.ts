/**
 * The generated operation tables of the three APIs: the rows codegen writes into each client's
 * `src/gen/operations.gen.ts` from the final spec, and the clients send every call by. The stand-ins route by
 * them, so a stand-in and a client can never disagree on which operation a request is.
 *
 * Read from the generated files themselves: only the store re-exports its table (`operations` of
 * `@agent-apis/store`); the directory and trust clients keep theirs inside the package.
 */
import type { ServiceName } from '@agent-apis/specs/services';
import { operations as directory } from '../../../packages/directory/src/gen/operations.gen.ts';
import { operations as store } from '../../../packages/store/src/gen/operations.gen.ts';
import { operations as trust } from '../../../packages/trust/src/gen/operations.gen.ts';

export const OPERATION_TABLES = { directory, store, trust } as const satisfies Record<ServiceName, object>;
