/**
 * Enforcement of a decision before an agent touches a target: what runs for each action, and the errors thrown
 * when the action stops the agent.
 */
import type { RequestOptions } from '@agent-apis/core';
import { AgentApiError } from '@agent-apis/core';
import { redactUrl } from '@agent-apis/core/service';
import type { TrustDecision } from './decision.js';
import type { Interaction, Policy } from './gen/types.gen.js';

/** What every guard accepts. */
export interface GuardContext {
  /** The interaction the agent is about to perform (default fetch / read_only / medium). */
  interaction?: Interaction | undefined;
  /** The policy to decide under (default balanced). */
  policy?: Policy | undefined;
  /**
   * When the trust service cannot be reached or answers with an error: `false` (default) blocks with a
   * {@link TrustUnavailableError}; `true` lets the agent go ahead without a decision.
   */
  failOpen?: boolean | undefined;
}

/**
 * Options of `client.guard(url)`: the decision's context, the per-call `RequestOptions` of every client, and
 * handlers. A handler that returns lets the agent go ahead; one that throws stops it.
 */
export interface GuardOptions extends GuardContext, RequestOptions {
  /** Runs for `sandbox`; without it the guard throws {@link TrustSandboxRequiredError}. */
  onSandbox?: ((decision: TrustDecision, url: URL) => void | Promise<void>) | undefined;
  /** Runs for `escalate_to_human`; without it the guard throws {@link TrustEscalationRequiredError}. */
  onEscalate?: ((decision: TrustDecision, url: URL) => void | Promise<void>) | undefined;
}

/** Options of `client.guardedFetch(fetch)`. A handler answers in place of the target (or throws). */
export interface GuardedFetchOptions extends GuardContext {
  /** Answers a `sandbox` decision, e.g. by fetching through an isolated fetcher; default: throw {@link TrustSandboxRequiredError}. */
  onSandbox?: ((decision: TrustDecision, request: Request) => Response | Promise<Response>) | undefined;
  /** Answers an `escalate_to_human` decision, e.g. after a person approved; default: throw {@link TrustEscalationRequiredError}. */
  onEscalate?: ((decision: TrustDecision, request: Request) => Response | Promise<Response>) | undefined;
}

/** What runs for each action that does not simply let the agent go ahead. */
export interface ActionHandlers<R> {
  onSandbox?: ((decision: TrustDecision) => R | Promise<R>) | undefined;
  onEscalate?: ((decision: TrustDecision) => R | Promise<R>) | undefined;
}

/**
 * Runs `proceed` for `proceed` and `proceed_with_caution`, the matching handler for `sandbox` and
 * `escalate_to_human` (or throws when there is none), and throws {@link TrustDeniedError} for `deny` and for
 * any action this client does not know.
 */
export async function enforceDecision<R>(
  decision: TrustDecision,
  url: URL,
  handlers: ActionHandlers<R>,
  proceed: () => R | Promise<R>,
): Promise<R> {
  switch (decision.action) {
    case 'proceed':
    case 'proceed_with_caution':
      return proceed();
    case 'sandbox':
      if (handlers.onSandbox) return handlers.onSandbox(decision);
      throw new TrustSandboxRequiredError(decision, url);
    case 'escalate_to_human':
      if (handlers.onEscalate) return handlers.onEscalate(decision);
      throw new TrustEscalationRequiredError(decision, url);
    default:
      throw new TrustDeniedError(decision, url);
  }
}

function describeDecision(decision: TrustDecision): string {
  const codes = decision.reasonCodes.length > 0 ? decision.reasonCodes.join(', ') : 'no reason codes';
  return `${decision.action}: ${codes}`;
}

/** A guard stopped the agent because of the decision's action. */
export class TrustActionError extends AgentApiError {
  override name = 'TrustActionError';
  /** The decision that stopped the agent. */
  readonly decision: TrustDecision;
  /** The target, with credential query parameters masked. */
  readonly url: string;

  constructor(decision: TrustDecision, url: URL, what: string) {
    const safeUrl = redactUrl(url);
    super(`${what} ${safeUrl} (${describeDecision(decision)})`);
    this.decision = decision;
    this.url = safeUrl;
  }
}

/** The decision is `deny`: the target must not be contacted. */
export class TrustDeniedError extends TrustActionError {
  override name = 'TrustDeniedError';

  constructor(decision: TrustDecision, url: URL) {
    super(decision, url, 'Trust check denied');
  }
}

/** The decision is `sandbox` and no `onSandbox` handler was given. */
export class TrustSandboxRequiredError extends TrustActionError {
  override name = 'TrustSandboxRequiredError';

  constructor(decision: TrustDecision, url: URL) {
    super(decision, url, 'Trust check requires a sandbox (pass onSandbox to handle it) for');
  }
}

/** The decision is `escalate_to_human` and no `onEscalate` handler was given. */
export class TrustEscalationRequiredError extends TrustActionError {
  override name = 'TrustEscalationRequiredError';

  constructor(decision: TrustDecision, url: URL) {
    super(decision, url, 'Trust check requires human review (pass onEscalate to handle it) for');
  }
}

/** The trust service failed, so the guard blocked the agent (fail-closed); `cause` holds the failure. */
export class TrustUnavailableError extends AgentApiError {
  override name = 'TrustUnavailableError';
  /** The target, with credential query parameters masked. */
  readonly url: string;

  constructor(url: URL, cause: unknown) {
    const safeUrl = redactUrl(url);
    const reason = cause instanceof Error ? `: ${cause.message}` : '';
    super(`Trust check for ${safeUrl} failed, so the request was blocked (set failOpen to allow it)${reason}`, {
      cause,
    });
    this.url = safeUrl;
  }
}
