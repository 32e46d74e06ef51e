import { describe, expect, it } from 'vitest';
import { sameOriginRedirect } from './redirect.js';

const answer = (status: number, location?: string) =>
  new Response(null, { status, headers: location === undefined ? {} : { location } });

describe('sameOriginRedirect: the transport follows the rule', () => {
  it('is followed by the transport on the same origin only, keeping the request headers', () => {
    const request = new Request('https://api.test/v1/items', {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
    });
    expect(sameOriginRedirect(request, answer(303, 'https://other.test/'))).toBeUndefined();
    const next = sameOriginRedirect(request, answer(303, '/v1/done'));
    expect(next).toMatchObject({ method: 'GET', url: 'https://api.test/v1/done' });
    expect(next?.headers.get('authorization')).toBe('Bearer t');
  });
});
