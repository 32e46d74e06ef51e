/** The drift report: `specs/reports/drift.{json,md}`, the terminal summary and the exit status of `pnpm specs:diff`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { changeLines, countChanges, countSummary } from './drift-changeset.ts';
import type { ServiceDrift } from './drift-classify.ts';
import { table } from './report.ts';
import type { ServiceName } from './services.ts';

/** A service whose documents could not be read or compared. */
export interface DriftFailure {
  service: ServiceName;
  error: string;
}

export interface DriftReport {
  generatedAt: string;
  /** `mirror <folder>` or `network`. */
  source: string;
  services: (ServiceDrift | DriftFailure)[];
}

export function isFailure(entry: ServiceDrift | DriftFailure): entry is DriftFailure {
  return 'error' in entry;
}

/** Exit status for the nightly: 1 when a change is breaking or a service could not be compared. */
export function driftExitCode(report: DriftReport): number {
  return report.services.some((entry) => isFailure(entry) || entry.bump === 'major') ? 1 : 0;
}

export function driftMarkdown(report: DriftReport): string {
  const lines = [`# Upstream drift`, '', `Generated ${report.generatedAt} from ${report.source}.`, ''];
  for (const entry of report.services) {
    lines.push(`## ${entry.service}`, '');
    if (isFailure(entry)) {
      lines.push('Could not compare:', '', '```', entry.error, '```', '');
      continue;
    }
    lines.push(`- pinned sha256: \`${entry.pinnedSha256}\``, `- current sha256: \`${entry.currentSha256}\``);
    if (!entry.drifted) {
      lines.push('- no drift', '');
      continue;
    }
    lines.push(
      `- compared: ${entry.basis}`,
      `- changes: ${countSummary(entry)}; release: ${entry.bump ? `${entry.bump} (${entry.packageName})` : 'none'}`,
    );
    for (const action of entry.staleOverlayActions) lines.push(`- stale overlay action: ${action}`);
    lines.push('');
    if (entry.changes.length > 0) {
      lines.push('| kind | where | what |', '| --- | --- | --- |');
      const cell = (text: string) => text.replaceAll('|', '\\|');
      for (const change of entry.changes)
        lines.push(`| ${change.kind} | ${cell(change.where)} | ${cell(change.detail)} |`);
      lines.push('');
    }
  }
  return lines.join('\n');
}

/** The terminal view: a table of services, then per service its stale overlay actions and first changes. */
export function driftSummary(report: DriftReport, changesPerService = 15): string {
  const rows = report.services.map((entry) => {
    if (isFailure(entry)) return [entry.service, '-', '-', 'UNREADABLE', '-', '-', '-', '-'];
    const counts = countChanges(entry);
    return [
      entry.service,
      entry.pinnedSha256,
      entry.currentSha256,
      entry.drifted ? `drift (${entry.basis})` : 'none',
      String(counts.breaking),
      String(counts.addition),
      String(counts.other),
      entry.bump ?? '-',
    ];
  });
  const header = ['service', 'pinned sha256', 'current sha256', 'drift', 'breaking', 'additions', 'other', 'release'];
  const sections = [`source: ${report.source}\n`, table(header, rows)];
  for (const entry of report.services) {
    if (isFailure(entry)) {
      sections.push(`\n${entry.error}`);
      continue;
    }
    if (!entry.drifted) continue;
    const details = entry.staleOverlayActions.map((action) => `  stale overlay action ${action}`);
    details.push(...changeLines(entry, changesPerService).map((line) => `  ${line.slice(2)}`));
    sections.push(`\n${entry.service} (${entry.packageName}):\n${details.join('\n')}`);
  }
  return sections.join('\n');
}

/** Writes `drift.json` and `drift.md` into `dir` and returns their paths. */
export async function writeDriftReport(report: DriftReport, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files = [join(dir, 'drift.json'), join(dir, 'drift.md')] as const;
  await writeFile(files[0], `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files[1], driftMarkdown(report));
  return [...files];
}
