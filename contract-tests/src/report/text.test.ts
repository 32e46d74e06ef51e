import { describe, expect, it } from 'vitest';
import { CANARY } from '../engine/targets.ts';
import { htmlText, markdownName, markdownText, maskingFrom, maskRaw, maskText, xmlText } from './text.ts';

const HOSTILE =
  'text/html; <img src="https://beacon.example/x.png"> <script>alert(1)</script> @octocat ' +
  'see #12 [click](https://evil.example) ![b](https://evil.example/b.png) www.evil.example `code` | cell *em* _u_';

const env = {
  STORE_BASE_URL: 'https://user:pw-s3cret@store.example/v1',
  DIRECTORY_BASE_URL: 'https://dir.example/k/3f9a2b7c1d0e4f55/v1',
  STORE_AUTH_TOKEN: 'tok-abcdef123456',
  ENTROPY0_API_KEY: 'sk_ent0_live_998877',
};

describe('server text is data', () => {
  it('masks configured base URLs (as $VARIABLE), user:pw@, keys in paths and credentials', () => {
    const masking = maskingFrom(env);
    const text = maskText(
      `GET https://user:pw-s3cret@store.example/v1/products.json failed; GET https://dir.example/k/3f9a2b7c1d0e4f55/v1/repos; ` +
        `token tok-abcdef123456 key sk_ent0_live_998877 canary ${CANARY.store.authToken} other https://a:b@c.example/`,
      masking,
    );
    expect(text).toContain('$STORE_BASE_URL/products.json');
    expect(text).toContain('$DIRECTORY_BASE_URL/repos');
    for (const secret of [
      'pw-s3cret',
      '3f9a2b7c1d0e4f55',
      'tok-abcdef123456',
      'sk_ent0_live_998877',
      CANARY.store.authToken,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('https://[REDACTED]@c.example/');
    // A key in the path also when the URL appears in another form.
    expect(maskRaw('https://DIR.example/k/3f9a2b7c1d0e4f55/v2', masking)).not.toContain('3f9a2b7c1d0e4f55');
  });

  it('is one bounded line', () => {
    expect(maskText(`a\nb\r\nc\u0007\u202e`, maskingFrom({}))).toBe('a b c');
    expect(maskText('x'.repeat(100_000), maskingFrom({}), 50)).toHaveLength(50);
  });

  it('leaves no HTML, link, image, @mention or issue reference in Markdown', () => {
    const md = markdownText(HOSTILE);
    expect(md).not.toMatch(/[<>]/);
    expect(md).not.toMatch(/(^|[^\\])\[/);
    expect(md).not.toMatch(/(^|[^\\])\]\(/);
    expect(md).not.toMatch(/(^|[^\\])!\[/);
    expect(md).not.toMatch(/@[a-z]/i);
    expect(md).not.toMatch(/#\d/);
    expect(md).not.toContain('://');
    expect(md).not.toMatch(/www\./);
    expect(md).not.toMatch(/(^|[^\\])[`|*_]/);
    expect(md).toContain('&lt;img src=');
  });

  it('writes a name as a code span, or escaped when it cannot be one', () => {
    expect(markdownName('listProducts')).toBe('`listProducts`');
    expect(markdownName('<img src=x>')).toBe('`<img src=x>`');
    expect(markdownName('a`b|<img>')).toBe('a\\`b\\|&lt;img&gt;');
  });

  it('escapes HTML and XML', () => {
    expect(htmlText(`<img src=x onerror="a">&'`)).toBe('&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;');
    expect(xmlText(`<a b="c">\u0001&`)).toBe('&#60;a b=&#34;c&#34;&#62;&#38;');
  });
});
