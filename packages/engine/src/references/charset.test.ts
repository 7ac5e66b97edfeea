import { describe, expect, it } from 'vitest';
import { charsetFromContentType, decodeBody, prescanHtml } from './charset.js';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? ascii(p) : p)));

/** "Привет" in windows-1251. */
const PRIVET_1251 = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2];
/** "日本語テスト" in Shift_JIS. */
const NIHONGO_SJIS = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x83, 0x65, 0x83, 0x58, 0x83, 0x67];

describe('decodeBody', () => {
  it('windows-1251 page declared by <meta charset>', () => {
    const body = bytes(
      '<!DOCTYPE html><html><head><meta charset="windows-1251"><title>',
      PRIVET_1251,
      '</title>',
    );
    expect(decodeBody(body, 'text/html', 'html')).toEqual({
      text: '<!DOCTYPE html><html><head><meta charset="windows-1251"><title>Привет</title>',
      charset: 'windows-1251',
    });
  });

  it('windows-1251 declared by http-equiv after a comment', () => {
    const body = bytes(
      '<!-- <meta charset="utf-8"> --><meta http-equiv="Content-Type" content="text/html; charset=cp1251">',
      PRIVET_1251,
    );
    const r = decodeBody(body, undefined, 'html');
    expect(r.charset).toBe('windows-1251');
    expect(r.text.endsWith('Привет')).toBe(true);
  });

  it('shift_jis from the Content-Type header wins over the document', () => {
    const body = bytes('<meta charset="utf-8"><p>', NIHONGO_SJIS);
    const r = decodeBody(body, 'text/html; charset="Shift_JIS"', 'html');
    expect(r).toEqual({ text: '<meta charset="utf-8"><p>日本語テスト', charset: 'shift_jis' });
  });

  it('a BOM wins over everything and is stripped', () => {
    const body = bytes([0xef, 0xbb, 0xbf], '<meta charset="windows-1251"><p>', [0xc3, 0xa9]);
    expect(decodeBody(body, 'text/html; charset=iso-8859-2', 'html')).toEqual({
      text: '<meta charset="windows-1251"><p>é',
      charset: 'utf-8',
    });
    const le = new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x42, 0x00]);
    expect(decodeBody(le, undefined, 'css')).toEqual({ text: 'AB', charset: 'utf-16le' });
  });

  it('undeclared HTML: UTF-8 when valid, windows-1252 otherwise', () => {
    expect(decodeBody(bytes('<p>caf', [0xc3, 0xa9]), undefined, 'html')).toEqual({
      text: '<p>café',
      charset: 'utf-8',
    });
    expect(decodeBody(bytes('<p>caf', [0xe9]), undefined, 'html')).toEqual({
      text: '<p>café',
      charset: 'windows-1252',
    });
    // a body cut in the middle of a multi-byte sequence is still UTF-8
    expect(decodeBody(bytes('<p>caf', [0xc3, 0xa9, 0xe6, 0x97]), undefined, 'html').charset).toBe(
      'utf-8',
    );
  });

  it('meta charset utf-16 means utf-8; unknown labels are ignored; x-user-defined is windows-1252', () => {
    expect(prescanHtml(bytes('<meta charset="utf-16le">'))).toBe('utf-8');
    expect(prescanHtml(bytes('<meta charset="klingon"><meta charset="koi8-r">'))).toBe('koi8-r');
    expect(prescanHtml(bytes('<meta charset="x-user-defined">'))).toBe('windows-1252');
    expect(prescanHtml(bytes('<meta content="text/html; charset=euc-kr">'))).toBeUndefined();
    expect(
      prescanHtml(bytes('<META HTTP-EQUIV=content-type CONTENT="text/html;charset=\'gbk\'">')),
    ).toBe('gbk');
    expect(prescanHtml(bytes('<div title="<meta charset=big5>"><meta charset=euc-jp>'))).toBe(
      'euc-jp',
    );
  });

  it('only the first 1024 bytes are prescanned', () => {
    const late = bytes(`<!--${'x'.repeat(1100)}--><meta charset="windows-1251">`, PRIVET_1251);
    expect(decodeBody(late, undefined, 'html').charset).toBe('windows-1252');
  });

  it('CSS: header, then @charset, then utf-8', () => {
    const css = bytes('@charset "windows-1251";\na::after{content:"', PRIVET_1251, '"}');
    expect(decodeBody(css, 'text/css', 'css')).toEqual({
      text: '@charset "windows-1251";\na::after{content:"Привет"}',
      charset: 'windows-1251',
    });
    expect(decodeBody(css, 'text/css; charset=utf-8', 'css').charset).toBe('utf-8');
    expect(decodeBody(bytes("@charset 'windows-1251';"), undefined, 'css').charset).toBe('utf-8');
    expect(decodeBody(bytes('@charset "utf-16be";'), undefined, 'css').charset).toBe('utf-8');
    expect(decodeBody(bytes('a{}', [0xc3, 0xa9]), undefined, 'css')).toEqual({
      text: 'a{}é',
      charset: 'utf-8',
    });
  });

  it('reads charset parameters', () => {
    expect(charsetFromContentType('text/html; charset=UTF-8')).toBe('UTF-8');
    expect(charsetFromContentType('text/html;charset="gbk"; foo=bar')).toBe('gbk');
    expect(charsetFromContentType('text/html')).toBeUndefined();
    expect(charsetFromContentType(undefined)).toBeUndefined();
  });
});
