/**
 * orval turns a string schema's `pattern` into `faker.helpers.fromRegExp("<pattern>")`, and faker treats the
 * `^` and `$` anchors as literal characters, so `^dec_[0-9a-f]{26}$` yields `^dec_…$`, which the spec (and the
 * zod schema) reject. Anchors mean nothing when generating a string, so they are dropped.
 * Upstream: https://github.com/orval-labs/orval/issues/3154 (open).
 */

const FROM_REGEXP_CALL = /faker\.helpers\.fromRegExp\(("(?:[^"\\]|\\.)*")\)/g;

/** `^abc$` → `abc`; `\$` at the end is a literal dollar sign and stays. */
export function stripAnchors(pattern: string): string {
  const start = pattern.startsWith('^') ? 1 : 0;
  const backslashesBeforeEnd = /(\\*)\$$/.exec(pattern)?.[1]?.length;
  const anchoredEnd = backslashesBeforeEnd !== undefined && backslashesBeforeEnd % 2 === 0;
  return pattern.slice(start, anchoredEnd ? -1 : undefined);
}

export function stripFakerPatternAnchors(source: string): string {
  return source.replace(FROM_REGEXP_CALL, (call, literal: string) => {
    let pattern: unknown;
    try {
      pattern = JSON.parse(literal);
    } catch {
      return call;
    }
    return typeof pattern === 'string' ? `faker.helpers.fromRegExp(${JSON.stringify(stripAnchors(pattern))})` : call;
  });
}
