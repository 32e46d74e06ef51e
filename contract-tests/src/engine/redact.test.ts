import { describe, expect, it } from 'vitest';
import { displayBase, displayUrl, reproduction } from './redact.ts';

describe('what of a live target is shown', () => {
  it('drops user:password@, the query and a key in the path from the base URL', () => {
    expect(displayBase('https://user:s3cret@api.example.com/v1')).toBe('https://api.example.com/v1');
    expect(displayBase('https://api.example.com/k_9f8e7d6c5b4a/v1/?token=abc')).toBe('https://api.example.com/***/v1');
    expect(displayBase('http://127.0.0.1:4010/api')).toBe('http://127.0.0.1:4010/api');
    for (const shown of [displayBase('https://u:pw-77@h/sk_live_abcdef123456'), displayBase('not a url')]) {
      expect(shown).not.toMatch(/pw-77|sk_live|abcdef/);
    }
  });

  it('shows a URL sent under the displayed base, without credential query parameters', () => {
    expect(
      displayUrl('https://u:pw@h.io/key123abc/v1/products/7.json?api_key=zz&page=2', 'https://u:pw@h.io/key123abc/v1'),
    ).toBe('https://h.io/***/v1/products/7.json?page=2');
  });

  it('reproduces a request with the base URL and credentials as variables, shell-safe', () => {
    const line = reproduction(
      { method: 'POST', url: 'https://u:pw@h.io/v1/decide?x=$(id)', body: `{"a":"it's"}` },
      'https://u:pw@h.io/v1',
      { baseUrlEnv: 'TRUST_BASE_URL', auth: ['-H', '"X-API-Key: $ENTROPY0_API_KEY"'] },
    );
    expect(line).toBe(
      `curl -sS -X POST "$TRUST_BASE_URL/decide?x=\\$(id)" -H "X-API-Key: $ENTROPY0_API_KEY" -H 'content-type: application/json' -d '{"a":"it'\\''s"}'`,
    );
    expect(line).not.toContain('pw');
  });
});
