/**
 * Escapes for the three formats a report is written in, with no dependency (the nightly script loads this before
 * anything is built). Text is masked first (`text.ts`); these make what is left data, never markup.
 */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML element content or a quoted attribute value. */
export function htmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Text for XML element content or a quoted attribute (characters XML 1.0 forbids are dropped). */
export function xmlText(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  );
}

const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Text for GitHub-flavoured Markdown (a table cell, a list item, an issue body), shown exactly as text: HTML is
 * entity-escaped; the punctuation that makes links, images, emphasis, code and table cells is backslash-escaped
 * (and `#`, `-`, `+` at the start, which make headings and lists); `@name`, `#123`, `https://…`, `www.` and e-mail
 * addresses get a zero-width space so nothing mentions, references or links.
 */
export function markdownText(text: string): string {
  return text
    .replace(/[&<>]/g, (c) => HTML_ESCAPES[c] ?? c)
    .replace(/[\\`*_{}[\]!|~]/g, (c) => `\\${c}`)
    .replace(/^\s*([#+-])/, '\\$1')
    .replace(/@/g, `@${ZERO_WIDTH_SPACE}`)
    .replace(/#(?=\d)/g, `#${ZERO_WIDTH_SPACE}`)
    .replace(/:\/\//g, `:${ZERO_WIDTH_SPACE}//`)
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}${ZERO_WIDTH_SPACE}.`);
}

/**
 * A name (operation id, check, field path) for Markdown: as an inline code span when it is one short line without
 * a backtick (a code span shows its content literally: no link, mention or HTML), else as `markdownText`.
 */
export function markdownName(text: string): string {
  return /^[^`|\n\r]{1,200}$/.test(text) ? `\`${text}\`` : markdownText(text);
}
