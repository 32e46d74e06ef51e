/**
 * The changeset a drift calls for (`pnpm specs:diff --changeset`): the package, the bump (major for a breaking
 * change, minor for an addition, patch otherwise) and the first changes, breaking ones first.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeKind, ServiceDrift } from './drift-classify.ts';
import { REPO_ROOT } from './services.ts';

export function countChanges(drift: ServiceDrift): Record<ChangeKind, number> {
  const counts: Record<ChangeKind, number> = { breaking: 0, addition: 0, other: 0 };
  for (const change of drift.changes) counts[change.kind]++;
  return counts;
}

const KIND_LABEL: Record<ChangeKind, string> = { breaking: 'breaking', addition: 'addition', other: 'other' };

export function countSummary(drift: ServiceDrift): string {
  const { breaking, addition, other } = countChanges(drift);
  return `${breaking} breaking, ${addition} addition${addition === 1 ? '' : 's'}, ${other} other`;
}

/** The changeset body: the first `limit` changes, breaking ones first. */
export function changeLines(drift: ServiceDrift, limit: number): string[] {
  const lines = drift.changes.slice(0, limit).map((c) => `- ${KIND_LABEL[c.kind]}: ${c.where}: ${c.detail}`);
  if (drift.changes.length > limit) lines.push(`- ... and ${drift.changes.length - limit} more`);
  return lines;
}

export function changesetText(drift: ServiceDrift): string {
  if (!drift.bump) throw new Error(`${drift.service}: no change the clients see, so no changeset`);
  return [
    '---',
    `"${drift.packageName}": ${drift.bump}`,
    '---',
    '',
    `The upstream ${drift.service} API changed (pinned sha256 ${drift.pinnedSha256.slice(0, 12)}, ` +
      `now ${drift.currentSha256.slice(0, 12)}): ${countSummary(drift)}.`,
    ...(drift.staleOverlayActions.length > 0
      ? ['', `${drift.staleOverlayActions.length} overlay action(s) no longer apply and need a new repair.`]
      : []),
    '',
    ...changeLines(drift, 30),
    '',
  ].join('\n');
}

/**
 * Writes `<dir>/drift-<service>-<current sha256 prefix>.md` for a drift that calls for a release, and returns its
 * path. The name depends on the new document only, so a nightly that sees the same drift again rewrites the file.
 */
export async function writeChangeset(
  drift: ServiceDrift,
  dir = join(REPO_ROOT, '.changeset'),
): Promise<string | undefined> {
  if (!drift.bump) return undefined;
  await mkdir(dir, { recursive: true });
  const file = join(dir, `drift-${drift.service}-${drift.currentSha256.slice(0, 12)}.md`);
  await writeFile(file, changesetText(drift));
  return file;
}
