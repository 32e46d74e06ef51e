/**
 * Server text in a report is data, never markup. Everything a server or a configuration put into a report (a
 * message, a content type, a URL, a record id) goes through `maskText` first (credentials and configured base
 * URLs out), then through the escape of the format it lands in: `markdownText` (coverage.md, the nightly's
 * tracking-issue body: no HTML, links, images, @mentions or issue references survive), `htmlText` (the HTML page)
 * or `xmlText` (JUnit).
 */
import { redactText } from '@agent-apis/core/service';
import { CANARY, MCP_CANARY } from '../engine/targets.ts';
import { markdownName, markdownText } from './escape.ts';

export { htmlText, markdownName, markdownText, xmlText } from './escape.ts';

/** Variables holding a credential: their values never reach a report. */
export const CREDENTIAL_VARIABLES = [
  'STORE_LOGIN',
  'STORE_AUTH_TOKEN',
  'STORE_ACCESS_TOKEN',
  'STORE_MCP_LOGIN_KEY',
  'STORE_MCP_AUTH_TOKEN',
  'ENTROPY0_API_KEY',
] as const;

/** Variables holding a base URL: a report writes `$NAME` for them, so a key in the path or `user:pw@` never shows. */
export const BASE_URL_VARIABLES = [
  'DIRECTORY_BASE_URL',
  'STORE_BASE_URL',
  'TRUST_BASE_URL',
  'STORE_MCP_URL',
  'DIRECTORY_MCP_URL',
] as const;

/** The longest text of one field a report carries; a server's 1 MB error message is cut. */
export const MAX_TEXT = 2_000;

export interface Masking {
  /** Secret values masked wherever they appear. */
  secrets: string[];
  /** Configured base URLs (without trailing slash) and the variable named for them, longest first. */
  baseUrls: [url: string, variable: string][];
}

/** What to mask, from the environment the run was given: credential values, base URLs, the mock canaries. */
export function maskingFrom(env: Record<string, string | undefined> = process.env): Masking {
  const secrets = new Set<string>([...Object.values(CANARY.store), CANARY.trust.apiKey, ...Object.values(MCP_CANARY)]);
  for (const name of CREDENTIAL_VARIABLES) {
    const value = env[name]?.trim();
    if (value) secrets.add(value);
  }
  const baseUrls: [string, string][] = [];
  for (const name of BASE_URL_VARIABLES) {
    const value = env[name]?.trim().replace(/\/+$/, '');
    if (!value) continue;
    baseUrls.push([value, `$${name}`]);
    // The same URL as the URL class writes it (lower-case host, default port dropped, encoded path).
    try {
      const parsed = new URL(value);
      const normalized = parsed.href.replace(/\/+$/, '');
      if (normalized !== value) baseUrls.push([normalized, `$${name}`]);
      if (parsed.username) secrets.add(decodeURIComponent(parsed.username));
      if (parsed.password) secrets.add(decodeURIComponent(parsed.password));
      // A key in the path (`/k/3f9a…/v1`): any segment long and mixed enough to be one.
      for (const segment of parsed.pathname.split('/')) {
        if (segment.length >= 12 && /\d/.test(segment) && /[a-z]/i.test(segment)) secrets.add(segment);
      }
    } catch {
      // Not a URL: masked as a whole by the replacement above.
    }
  }
  baseUrls.sort((a, b) => b[0].length - a[0].length);
  return { secrets: [...secrets], baseUrls };
}

/** Text of any length and shape (a log line, a JUnit file) with base URLs and credentials masked, nothing else. */
export function maskRaw(text: string, masking: Masking): string {
  let result = text;
  for (const [url, variable] of masking.baseUrls) result = result.split(url).join(variable);
  return redactText(result, masking.secrets);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * One line of report text: configured base URLs become `$VARIABLE`, credentials `[REDACTED]`, control and
 * direction characters go, line breaks become spaces, and the text is cut at `max` characters. Masked whole before
 * anything is cut: a cut through a secret would leave its first characters unmasked.
 */
export function maskText(text: unknown, masking: Masking, max = MAX_TEXT): string {
  let result = String(text ?? '');
  for (const [url, variable] of masking.baseUrls) result = result.split(url).join(variable);
  result = redactText(result, masking.secrets)
    .replace(/\r\n?|\n/g, ' ')
    .replace(CONTROL, '');
  return result.length > max ? `${result.slice(0, max - 1)}…` : result;
}

/** Masked, then escaped for Markdown: the one way server text enters a Markdown report. */
export function markdownData(text: unknown, masking: Masking, max = MAX_TEXT): string {
  return markdownText(maskText(text, masking, max));
}

/** Masked, then written as a Markdown name (`markdownName`). */
export function markdownNameData(text: unknown, masking: Masking): string {
  return markdownName(maskText(text, masking, 200));
}
