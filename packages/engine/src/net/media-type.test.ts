import { describe, expect, it } from 'vitest';
import { essenceOf, parseMediaType } from './media-type.js';

describe('parseMediaType', () => {
  it.each([
    ['text/html', { essence: 'text/html', charset: undefined }],
    ['text/HTML ; charset="UTF-8"', { essence: 'text/html', charset: 'UTF-8' }],
    ['Text/CSS;Charset=iso-8859-1', { essence: 'text/css', charset: 'iso-8859-1' }],
    ['application/javascript; charset', { essence: 'application/javascript', charset: undefined }],
    ['text/html;;charset=; foo=bar', { essence: 'text/html', charset: undefined }],
    ['text/html; foo; charset=utf-8', { essence: 'text/html', charset: 'utf-8' }],
    [' text/plain ', { essence: 'text/plain', charset: undefined }],
  ])('%j → %j', (header, expected) => {
    expect(parseMediaType(header)).toEqual(expected);
  });

  it.each([[''], ['garbage'], ['text/'], ['/html'], ['text html'], [undefined]])(
    'gives null for %j',
    (header) => {
      expect(parseMediaType(header)).toBeNull();
    },
  );
});

describe('essenceOf', () => {
  it('gives the essence, or an empty string for no media type', () => {
    expect(essenceOf('Application/XHTML+XML; charset=utf-8')).toBe('application/xhtml+xml');
    expect(essenceOf('garbage')).toBe('');
    expect(essenceOf(undefined)).toBe('');
  });
});
