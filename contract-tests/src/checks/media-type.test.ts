import { describe, expect, it } from 'vitest';
import { mediaTypeMatches } from './baseline.ts';

describe('content_type_conformance: which received media types a documented one admits', () => {
  it('compares without case, as media types are case-insensitive', () => {
    expect(mediaTypeMatches('application/json', 'Application/JSON')).toBe(true);
  });

  it('reads a documented wildcard as a range', () => {
    expect(mediaTypeMatches('*/*', 'text/csv')).toBe(true);
    expect(mediaTypeMatches('application/*', 'application/pdf')).toBe(true);
    expect(mediaTypeMatches('application/*', 'text/html')).toBe(false);
  });

  it('takes a +json subtype for application/json, and nothing else for it', () => {
    expect(mediaTypeMatches('application/json', 'application/problem+json')).toBe(true);
    expect(mediaTypeMatches('application/json', 'text/html')).toBe(false);
    expect(mediaTypeMatches('application/json', 'application/xml')).toBe(false);
  });
});
