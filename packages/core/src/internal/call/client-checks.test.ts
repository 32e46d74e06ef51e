import { thrownBy } from '@agent-apis/test-utils/errors';
import { describe, expect, it } from 'vitest';
import { checkBaseUrl, checkedHeaders, isAbortSignal } from './client-checks.js';
import { AgentApiError, InvalidBaseUrlError } from './errors.js';

const thrown = (run: () => unknown): Error => thrownBy(run, Error);

describe('checkBaseUrl', () => {
  it('never quotes what precedes an @ of a URL that does not parse (finding: a password in a malformed URL)', () => {
    const error = thrown(() => checkBaseUrl('ExampleClient', 'not a url hunter2-canary-pass@host'));
    expect(error).toBeInstanceOf(InvalidBaseUrlError);
    expect(error.message).not.toContain('hunter2-canary-pass');
    expect(error.message).toContain('ExampleClient baseUrl must be an absolute http(s) URL');
  });

  it('names the option it checks, and lets a query through only when asked', () => {
    expect(thrown(() => checkBaseUrl('ToolClient', 'ftp://tools.test', { option: 'url' })).message).toBe(
      'ToolClient url must use http or https, got ftp:',
    );
    expect(() => checkBaseUrl('C', 'https://api.test/v1?key=sk_query_secret')).toThrow(/query or fragment: .*\?…$/);
    expect(checkBaseUrl('C', 'https://tools.test/mcp?session=1', { option: 'url', allowQuery: true })).toBe(
      'https://tools.test/mcp?session=1',
    );
  });
});

describe('checkedHeaders', () => {
  it('names the option and the header, never the value', () => {
    const error = thrown(() => checkedHeaders('C', { 'x-api-key': 'canary-key-7\r\nA: b' }, 'headers'));
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error.message).toContain('C headers: header x-api-key');
    expect(error.message).not.toContain('canary-key-7');
  });

  it('keeps every header of a record, of pairs and of a Headers', () => {
    expect([...(checkedHeaders('C', { 'x-a': '1' }) ?? [])]).toEqual([['x-a', '1']]);
    expect([...(checkedHeaders('C', [['x-b', '2']]) ?? [])]).toEqual([['x-b', '2']]);
    expect([...(checkedHeaders('C', new Headers({ 'x-c': '3' })) ?? [])]).toEqual([['x-c', '3']]);
  });
});

describe('isAbortSignal', () => {
  it('knows a signal of this realm and one shaped like it, and nothing else', () => {
    expect(isAbortSignal(new AbortController().signal)).toBe(true);
    expect(isAbortSignal({ aborted: false, reason: undefined, addEventListener: () => undefined })).toBe(true);
    for (const value of [{}, null, undefined, 'signal', { aborted: 'no' }]) expect(isAbortSignal(value)).toBe(false);
  });
});
