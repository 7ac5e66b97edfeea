import { describe, expect, it } from 'vitest';
import { memoize } from './memo.js';

describe('memoize', () => {
  it('answers a question asked again from memory, null answers included', () => {
    const asked: string[] = [];
    const lengthOrNull = memoize((input) => {
      asked.push(input);
      return input === '' ? null : input.length;
    }, 8);
    expect([lengthOrNull('abc'), lengthOrNull('abc'), lengthOrNull(''), lengthOrNull('')]).toEqual([
      3,
      3,
      null,
      null,
    ]);
    expect(asked).toEqual(['abc', '']);
  });

  it('holds at most the answers it was told to, and computes again what it let go', () => {
    const asked: string[] = [];
    const upper = memoize((input) => {
      asked.push(input);
      return input.toUpperCase();
    }, 3);
    for (const input of ['a', 'b', 'c', 'd', 'a', 'd'])
      expect(upper(input)).toBe(input.toUpperCase());
    // 'd' found the memory full and emptied it: 'a' is computed again, 'd' is remembered.
    expect(asked).toEqual(['a', 'b', 'c', 'd', 'a']);
  });
});
