import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ordered, spliceText, spliceUtf8, type Edit } from './splice.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('spliceUtf8: the copy of a page made from its fetched bytes', () => {
  it('gives the bytes of the edited text, around accents, CJK and emoji', () => {
    const source = '<p>Café 日本 😀</p><a href="../a.html">à</a><img src="b.png">';
    const edits = ordered([
      { start: source.indexOf('b.png'), end: source.indexOf('b.png') + 5, text: '/b.png' },
      { start: source.indexOf('../a'), end: source.indexOf('../a') + 9, text: '/é/a.html' },
    ]);
    const bytes = spliceUtf8(utf8(source), source, edits)!;
    expect(bytes.toString('utf8')).toBe(
      '<p>Café 日本 😀</p><a href="/é/a.html">à</a><img src="/b.png">',
    );
  });

  it('leaves out a byte order mark the decoder left out, and keeps one it kept', () => {
    const source = '<a href="x">ü</a>';
    const edits = [{ start: 9, end: 10, text: '/x' }];
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(source)]);
    expect(spliceUtf8(withBom, source, edits)!.toString('utf8')).toBe('<a href="/x">ü</a>');
    const kept = `\uFEFF${source}`;
    const keptEdits = [{ start: 10, end: 11, text: '/x' }];
    expect(spliceUtf8(withBom, kept, keptEdits)!.equals(utf8(spliceText(kept, keptEdits)))).toBe(
      true,
    );
  });

  it('declines bytes that are not the text in UTF-8', () => {
    const invalid = Buffer.from([0x3c, 0x61, 0xff, 0x3e]); // decoded with U+FFFD
    expect(spliceUtf8(invalid, '<a\uFFFD>', [{ start: 1, end: 2, text: 'b' }])).toBeUndefined();
    // An edit ending inside a surrogate pair.
    const source = 'x😀y';
    expect(spliceUtf8(utf8(source), source, [{ start: 0, end: 2, text: 'z' }])).toBeUndefined();
  });

  it('equals encoding the spliced text, for any text and edits', () => {
    const texts = fc.string({ unit: 'binary', maxLength: 60 });
    fc.assert(
      fc.property(
        texts,
        fc.array(fc.tuple(fc.nat(), fc.nat(8), fc.string({ unit: 'binary', maxLength: 6 })), {
          maxLength: 8,
        }),
        (text, wanted) => {
          // Text decoded from UTF-8 has no lone surrogates.
          const source = text.replace(
            /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
            '?',
          );
          // Edits on code point boundaries, as the scanners' edits (between ASCII syntax) are.
          const points = [...source];
          const offsets = [0];
          for (const p of points) offsets.push(offsets.at(-1)! + p.length);
          const edits: Edit[] = wanted.map(([at, length, replacement]) => {
            const i = at % offsets.length;
            const j = Math.min(i + length, offsets.length - 1);
            return { start: offsets[i]!, end: offsets[j]!, text: replacement };
          });
          const kept = ordered(edits);
          const bytes = spliceUtf8(utf8(source), source, kept);
          expect(bytes?.equals(utf8(spliceText(source, kept)))).toBe(true);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
