import { describe, expect, it } from 'vitest';
import { stripAnchors, stripFakerPatternAnchors } from './faker-patterns.ts';

describe('stripAnchors', () => {
  it.each([
    ['^dec_[0-9a-f]{26}$', 'dec_[0-9a-f]{26}'],
    ['[A-Z]+', '[A-Z]+'],
    ['^\\d+', '\\d+'],
    ['price\\$', 'price\\$'],
    ['price\\\\$', 'price\\\\'],
  ])('%s → %s', (pattern, expected) => {
    expect(stripAnchors(pattern)).toBe(expected);
  });
});

describe('stripFakerPatternAnchors', () => {
  it('rewrites the patterns passed to faker.helpers.fromRegExp and nothing else', () => {
    const source = 'id: faker.helpers.fromRegExp("^dec_\\\\d{2}$"), note: "^keep$"';
    expect(stripFakerPatternAnchors(source)).toBe('id: faker.helpers.fromRegExp("dec_\\\\d{2}"), note: "^keep$"');
  });

  it('generates strings that match the anchored pattern once the anchors are gone', async () => {
    const { faker } = await import('@faker-js/faker');
    const pattern = '^dec_[0-9a-f]{26}$';
    expect(faker.helpers.fromRegExp(pattern)).not.toMatch(new RegExp(pattern));
    expect(faker.helpers.fromRegExp(stripAnchors(pattern))).toMatch(new RegExp(pattern));
  });
});
