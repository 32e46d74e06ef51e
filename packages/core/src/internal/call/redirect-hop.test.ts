import { describe, expect, it } from 'vitest';
import { redirectHop } from './redirect.js';

const answer = (status: number, location?: string) =>
  new Response(null, { status, headers: location === undefined ? {} : { location } });

describe('redirectHop: the one redirect rule', () => {
  it('turns 303, and 301/302 of a POST, into a GET; 307/308 keep the method', () => {
    const from = 'https://api.test/v1/items';
    expect(redirectHop('POST', from, answer(303, '/v1/done'))).toMatchObject({ method: 'GET', toGet: true });
    expect(redirectHop('POST', from, answer(302, '/v1/x'))).toMatchObject({ method: 'GET', toGet: true });
    expect(redirectHop('PUT', from, answer(301, '/v1/x'))).toMatchObject({ method: 'PUT', toGet: false });
    expect(redirectHop('POST', from, answer(307, '/v1/x'))).toMatchObject({ method: 'POST', toGet: false });
    expect(redirectHop('DELETE', from, answer(308, '/v1/x'))?.url.href).toBe('https://api.test/v1/x');
  });

  it('tells whether the hop leaves the origin, and is no hop without a location, for 304/305/306 or an unparsable one', () => {
    const from = 'https://api.test/v1/items';
    expect(redirectHop('GET', from, answer(302, 'https://other.test/'))?.sameOrigin).toBe(false);
    expect(redirectHop('GET', from, answer(302, '//api.test/elsewhere'))?.sameOrigin).toBe(true);
    expect(redirectHop('GET', from, answer(302))).toBeUndefined();
    for (const status of [304, 305, 306]) expect(redirectHop('GET', from, answer(status, '/x'))).toBeUndefined();
    expect(redirectHop('GET', from, answer(302, 'http://[bad'))).toBeUndefined();
  });
});
