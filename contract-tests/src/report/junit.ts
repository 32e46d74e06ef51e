/**
 * The contract JUnit file of one target (`reports/<target>/coverage-junit.xml`; vitest's own per-test file is
 * `reports/<target>/junit.xml`). A service with evidence has one case per operation: failed is a `<failure>` with
 * record, URL and reproduction; inconclusive and not-run are `<skipped>` with the reason; warned is a passed case
 * with its warnings (a `<failure type="warning">` under CONTRACT_STRICT=1); a service short of its floor gets one
 * failing `floor` case, so a JUnit reader never shows an unverified run as passed. A service without evidence (a
 * tool server) has one case per coverage check. Every text is masked and XML-escaped.
 */
import type { CoverageEntry, ServiceCoverage } from '../evidence/coverage.ts';
import type { OperationEvidence, ServiceEvidence } from '../evidence/evidence.ts';
import { type RunJudgement, STATE_LABELS } from './states.ts';
import { type Masking, maskText, xmlText } from './text.ts';

interface Case {
  name: string;
  body: string;
  failed: boolean;
  skipped: boolean;
}

export function renderJunit(
  judgement: RunJudgement,
  evidence: ServiceEvidence[],
  coverage: ServiceCoverage[],
  masking: Masking,
  strict: boolean,
): string {
  const x = (text: unknown) => xmlText(maskText(text, masking));
  const suites = judgement.services.map((service) => {
    const e = evidence.find((item) => item.service === service.service);
    const c = coverage.find((item) => item.service === service.service);
    const cases: Case[] = e
      ? e.operations.map((op) => operationCase(op, x, (text) => maskText(text, masking), strict))
      : (c?.entries ?? []).map((entry) => coverageCase(entry, x, strict));
    if (service.state === 'skipped') {
      cases.push({
        name: 'run',
        body: `<skipped message="${x(`${STATE_LABELS.skipped}: ${service.reasons.join('; ')}`)}"/>`,
        failed: false,
        skipped: true,
      });
    } else if (service.state === 'unverified' || (service.state === 'failed' && !cases.some((k) => k.failed))) {
      cases.push({
        name: 'floor',
        body: `<failure type="${service.state}" message="${x(`${STATE_LABELS[service.state]}: ${service.reasons.join('; ')}`)}"/>`,
        failed: true,
        skipped: false,
      });
    }
    const lines = cases.map(
      (k) => `    <testcase classname="contract.${x(service.service)}" name="${x(k.name)}">${k.body}</testcase>`,
    );
    return (
      `  <testsuite name="${x(`contract ${service.service} (${judgement.target}): ${STATE_LABELS[service.state]}`)}" ` +
      `tests="${cases.length}" failures="${cases.filter((k) => k.failed).length}" skipped="${cases.filter((k) => k.skipped).length}">\n` +
      `${lines.join('\n')}\n  </testsuite>`
    );
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${x(judgement.headline)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function operationCase(
  op: OperationEvidence,
  x: (text: unknown) => string,
  mask: (text: unknown) => string,
  strict: boolean,
): Case {
  const name = `${op.operation} (${op.method.toUpperCase()} ${op.path})`;
  if (op.verdict === 'failed') {
    const details = op.failures
      .map((f) =>
        [
          `${f.check}: ${f.message}`,
          f.record ? `record: ${f.record}` : '',
          f.url ? `URL: ${f.url}` : '',
          f.reproduction ? `reproduce: ${f.reproduction}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      )
      .join('\n\n');
    const first = op.failures[0];
    return {
      name,
      body: `<failure type="failed" message="${x(first ? `${first.check}: ${first.message}` : 'failed')}">${xmlText(
        details
          .split('\n')
          .map((line) => mask(line))
          .join('\n'),
      )}</failure>`,
      failed: true,
      skipped: false,
    };
  }
  if (op.verdict === 'inconclusive' || op.verdict === 'not-run') {
    return {
      name,
      body: `<skipped message="${x(`${op.verdict}: ${op.reason ?? ''}`)}"/>`,
      failed: false,
      skipped: true,
    };
  }
  // A verified operation may still carry warnings (its negative or optional-input checks): they count as a
  // warned case, a failure under CONTRACT_STRICT=1.
  if (op.verdict === 'warned' || (op.verdict === 'verified' && op.warnings.length > 0)) {
    const text = [op.verdict === 'warned' ? op.reason : undefined, ...op.warnings].filter(Boolean).join('; ');
    return strict
      ? { name, body: `<failure type="warning" message="${x(text)}"/>`, failed: true, skipped: false }
      : {
          name,
          body: `<properties><property name="verdict" value="warned"/></properties><system-out>${x(`WARNING: ${text}`)}</system-out>`,
          failed: false,
          skipped: false,
        };
  }
  return {
    name,
    body: `<system-out>${x(`verified: ${op.requests} request(s), ${op.records} record(s)`)}</system-out>`,
    failed: false,
    skipped: false,
  };
}

function coverageCase(e: CoverageEntry, x: (text: unknown) => string, strict: boolean): Case {
  const name = `${e.operation} ${e.check}`;
  if (e.outcome === 'failed' || (e.outcome === 'warning' && strict)) {
    return {
      name,
      body: `<failure type="${e.outcome}" message="${x(e.note ?? 'failed')}"/>`,
      failed: true,
      skipped: false,
    };
  }
  if (e.outcome === 'skipped' || e.outcome === 'inconclusive') {
    const note = e.outcome === 'inconclusive' ? `inconclusive: ${e.note ?? ''}` : (e.note ?? '');
    return { name, body: `<skipped message="${x(note)}"/>`, failed: false, skipped: true };
  }
  if (e.outcome === 'warning') {
    return {
      name,
      body: `<properties><property name="verdict" value="warning"/></properties><system-out>${x(`WARNING: ${e.note ?? ''}`)}</system-out>`,
      failed: false,
      skipped: false,
    };
  }
  return { name, body: '', failed: false, skipped: false };
}
