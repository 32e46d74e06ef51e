/**
 * The contract suite against a live service (CONTRACT_TARGET=live). Requests go straight to the service, never
 * through Prism, and only with inputs a real account can answer. The runner is a run context (`live/run.ts`) and
 * named checks, each rule in one place with its tests:
 *
 * - sampling (`live/listing.ts`): path values from the service's own answers (`contract-spec/sources.ts`); lists read at their
 *   first page, last page and CONTRACT_PAGES pages between chosen by the printed seed CONTRACT_SEED; lookups for up
 *   to CONTRACT_SAMPLE records spread over those pages;
 * - baseline (`live/baseline.ts`): what each answer proves (fail, warning, inconclusive), identity of lookups
 *   included (`live/identity.ts`);
 * - negative (`live/negative.ts`) and auth (`live/auth.ts`), only after a verified baseline;
 * - history-facing field collection (`live/fields.ts`): the fields every record carried;
 * - writes only with CONTRACT_ALLOW_WRITES naming the service, inside the lifecycles of records the run creates
 *   (`suite/lifecycles.ts`); dangerous operations only as steps of such a lifecycle, each named in CONTRACT_ALLOW_DANGEROUS;
 * - within the budget of the service's profile (`live/budget.ts`), every number within its range (`suite/settings.ts`).
 *
 * Each operation ends with one verdict in `evidence-<service>.json` (`suite/evidence.ts`): verified, failed, warned,
 * inconclusive or not run; the service is green only with no fail and its evidence floor reached.
 */

export type { LiveSuiteOptions } from '../engine/run.ts';
export { mediaTypeMatches } from './baseline.ts';
export { defineLiveSuite, LIVE_CHECKS } from './live-suite.ts';
