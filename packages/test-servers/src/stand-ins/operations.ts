/**
 * The generated operation tables of the three APIs: the rows codegen writes into each client's
 * `src/gen/operations.gen.ts` from the final spec, and the clients send every call by. The stand-ins route by
 * them, so a stand-in and a client can never disagree on which operation a request is.
 * Each client package exports its table as `operations`.
 */

import { operations as directory } from '@agent-apis/directory';
import type { ServiceName } from '@agent-apis/specs/services';
import { operations as store } from '@agent-apis/store';
import { operations as trust } from '@agent-apis/trust';

export const OPERATION_TABLES = { directory, store, trust } as const satisfies Record<ServiceName, object>;
