import { Tokenizer, TokenizerMode, type Token as P5 } from 'parse5';
import { describe, expect, it } from 'vitest';
import { HtmlScanner, Token, type RawTextKind } from './html-scan.js';

/** Raw-text elements, as the tree builder would switch the tokenizer (scripting on). */
const RAW: Record<string, RawTextKind> = {
  script: 'script',
  style: 'rawtext',
  xmp: 'rawtext',
  iframe: 'rawtext',
  noembed: 'rawtext',
  noframes: 'rawtext',
  noscript: 'rawtext',
  title: 'rcdata',
  textarea: 'rcdata',
  plaintext: 'plaintext',
};
const MODE = {
  script: TokenizerMode.SCRIPT_DATA,
  rawtext: TokenizerMode.RAWTEXT,
  rcdata: TokenizerMode.RCDATA,
  plaintext: TokenizerMode.PLAINTEXT,
} as const;

type Seen = (string | number | boolean)[];

/** Start tags (name, attributes with ranges, self-closing) and end tags, by our scanner. */
function ours(html: string): Seen[] {
  const scanner = new HtmlScanner(html);
  const out: Seen[] = [];
  for (;;) {
    const token = scanner.next();
    if (token === Token.End) return out;
    if (token === Token.StartTag) {
      out.push([
        'start',
        scanner.name,
        scanner.selfClosing,
        ...scanner.attrs.flatMap((a) => [a.name, a.value, a.start, a.end]),
      ]);
      const raw = RAW[scanner.name];
      if (raw) scanner.rawText(raw, scanner.name);
    } else if (token === Token.EndTag) out.push(['end', scanner.name]);
    else if (token === Token.Comment || token === Token.Doctype) out.push(['comment', scanner.end]);
  }
}

/** The same, by parse5's tokenizer (the reference implementation of the HTML standard). */
function theirs(html: string): Seen[] {
  const out: Seen[] = [];
  const tokenizer: Tokenizer = new Tokenizer(
    { sourceCodeLocationInfo: true },
    {
      onStartTag(token: P5.TagToken) {
        out.push([
          'start',
          token.tagName,
          token.selfClosing,
          ...token.attrs.flatMap((a) => {
            const loc = token.location!.attrs![a.name]!;
            return [a.name, a.value, loc.startOffset, loc.endOffset];
          }),
        ]);
        const raw = RAW[token.tagName];
        if (raw) tokenizer.state = MODE[raw];
      },
      onEndTag(token: P5.TagToken) {
        out.push(['end', token.tagName]);
      },
      // parse5 counts the end of the file as one more character.
      onComment(token: P5.CommentToken) {
        out.push(['comment', Math.min(token.location!.endOffset, html.length)]);
      },
      onDoctype(token: P5.DoctypeToken) {
        out.push(['comment', Math.min(token.location!.endOffset, html.length)]);
      },
      onEof() {},
      onCharacter() {},
      onNullCharacter() {},
      onWhitespaceCharacter() {},
    },
  );
  tokenizer.write(html, true);
  return out;
}

/** Pieces real and hostile pages are made of: every way a tag, attribute or comment can end. */
const PIECES = [
  '<a href="x.html">',
  "<img src='a b.png' alt=x>",
  '<img src=a.png/>',
  '<IMG SRC="UP.PNG">',
  '<link rel=stylesheet href=s.css >',
  '<a href = "spaced.html" >',
  '<a href="x" href="second">',
  '<a =weird b="1">',
  '<a b c=d e>',
  '<br/>',
  '<div/ class="x">',
  '<p title="a>b">',
  '<p title=a>b>',
  '<img src="&amp;&lt;&#x41;&notanentity;&amp">',
  '<img src=x.png?a=1&b=2>',
  '<img src="line\r\nbreak">',
  '<img\tsrc="tab"\nalt=\'nl\'>',
  '<img src="nul\0here">',
  '</a>',
  '</A >',
  '</a title="x>y">',
  '</>',
  '</ x>',
  '<!-- comment -->',
  '<!-->',
  '<!--->',
  '<!---->',
  '<!-- a -- b --!>',
  '<!--<a href=in-comment>-->',
  '<!doctype html>',
  '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">',
  '<![CDATA[ x ]]>',
  '<?php echo 1 ?>',
  '< a href=no>',
  '<3',
  'a < b',
  '<script>if (a<b) document.write("<img src=x>")</script>',
  '<script><!-- <script>x</script> --></script>',
  '<script><!--</script>',
  '<style>a{background:url(x.png)}</style  >',
  '<title>a <b> &amp; c</title>',
  '<textarea><img src=t.png></textarea>',
  '<noscript><img src=n.png></noscript>',
  '<iframe><a href=i></iframe>',
  '<svg><image href="s.png"/></svg>',
  'text & more text',
  '\n',
];

function soup(seed: number, count: number): string {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  let html = '';
  for (let k = 0; k < count; k++) html += PIECES[next(PIECES.length)];
  // A page may end anywhere, even inside a tag, a quote or a comment.
  return next(3) === 0 ? html.slice(0, next(html.length + 1)) : html;
}

describe('HtmlScanner', () => {
  it('reads each piece as the HTML standard does', () => {
    for (const piece of PIECES) expect([piece, ours(piece)]).toEqual([piece, theirs(piece)]);
  });

  it('agrees with the standard tokenizer on 5,000 generated pages of hostile markup', () => {
    for (let seed = 1; seed <= 5000; seed++) {
      const html = soup(seed, 2 + (seed % 20));
      expect([html, ours(html)]).toEqual([html, theirs(html)]);
    }
  });

  it('keeps the first of each name on a tag with 100,000 attributes, in linear time', () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `a${i % 50_000}="${i}"`);
    const scanner = new HtmlScanner(`<div ${names.join(' ')}>`);
    expect(scanner.next()).toBe(Token.StartTag);
    expect(scanner.attrs).toHaveLength(50_000);
    expect(scanner.attrs[49_999]!.value).toBe('49999');
  });

  it('a noscript range is read on its own, ending where it was told to', () => {
    const html = '<noscript><img src="a.png"><a href="b.html">b</a></noscript><img src="c.png">';
    const from = html.indexOf('<img');
    const to = html.indexOf('</noscript>');
    const scanner = new HtmlScanner(html, from, to);
    const names: string[] = [];
    for (let t = scanner.next(); t !== Token.End; t = scanner.next())
      if (t === Token.StartTag) names.push(scanner.attrs[0]!.value);
    expect(names).toEqual(['a.png', 'b.html']);
  });
});
