import { colord, extend } from 'colord';
import namesPlugin from 'colord/plugins/names';
import { tokenize, tokenTypes } from 'css-tree';

/** A colour in sRGB: r, g, b in 0..255, alpha in 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

extend([namesPlugin]);

/** `transparent` parses (to black at alpha 0) but is no colour a user means to match or set. */
const isTransparent = (text: string) => text.trim().toLowerCase() === 'transparent';

export function isColorName(name: string): boolean {
  return /^[a-z]+$/i.test(name) && !isTransparent(name) && colord(name).isValid();
}

/** The words CSS colour names are made of (`darkslategray` is "dark slate gray"). */
const COLOR_NAME_WORDS = new Set(
  (
    'alice almond antique aqua aquamarine azure beige bisque black blanched blue blush brown ' +
    'burlywood cadet chartreuse chiffon chocolate coral cornflower cornsilk cream crimson cyan ' +
    'dark deep dim dodger drab firebrick floral forest fuchsia gainsboro ghost gold goldenrod ' +
    'gray grey green honeydew hot indian indigo ivory khaki lace lavender lawn lemon light lime ' +
    'linen magenta maroon medium midnight mint misty moccasin navajo navy old olive orange orchid ' +
    'pale papaya peach peru pink plum powder puff purple rebecca red rose rosy royal saddle salmon ' +
    'sandy sea seashell sienna silver sky slate smoke snow spring steel tan teal thistle tomato ' +
    'turquoise violet wheat whip white yellow'
  ).split(' '),
);

/**
 * A CSS colour name in words, as a person writes it (`darkgreen` → "dark green",
 * `lightgoldenrodyellow` → "light goldenrod yellow"); anything else as it is.
 */
export function colorNameInWords(name: string): string {
  const lower = name.toLowerCase();
  if (!isColorName(lower) || COLOR_NAME_WORDS.has(lower)) return name;
  // Fewest words first: `goldenrod` stays one, `seagreen` is "sea green".
  const best: (string[] | undefined)[] = [[]];
  for (let end = 1; end <= lower.length; end++) {
    for (let start = 0; start < end; start++) {
      const before = best[start];
      const word = lower.slice(start, end);
      if (
        before &&
        COLOR_NAME_WORDS.has(word) &&
        (!best[end] || best[end]!.length > before.length + 1)
      ) {
        best[end] = [...before, word];
      }
    }
  }
  return best[lower.length]?.join(' ') ?? name;
}

/** The name of a colour when it has one (`#ff0000` → `red`; `gray` and `aqua` over `grey`, `cyan`). */
export function nameOfColor(color: Rgba): string | undefined {
  const name = colord({ r: color.r, g: color.g, b: color.b }).toName();
  return name?.replace('grey', 'gray').replace(/^cyan$/, 'aqua');
}

/** Parses hex, rgb()/rgba(), hsl()/hsla() and named colours (colord); undefined for anything else. */
export function parseColor(text: string): Rgba | undefined {
  if (isTransparent(text)) return undefined;
  const color = colord(text.trim());
  if (!color.isValid()) return undefined;
  const { r, g, b, a } = color.rgba;
  return { r: Math.round(r), g: Math.round(g), b: Math.round(b), a };
}

const hex2 = (v: number) => v.toString(16).padStart(2, '0');

/** `#rrggbb`, alpha left out: the key colours are matched and counted by. */
export function colorKey(c: Rgba): string {
  return `#${hex2(c.r)}${hex2(c.g)}${hex2(c.b)}`;
}

/**
 * The text that replaces a colour: `to` as the user wrote it, unless the replaced colour was
 * translucent and `to` is opaque, then `to` with the old alpha (a shadow stays a shadow).
 */
export function formatReplacement(to: string, toColor: Rgba, oldAlpha: number): string {
  if (oldAlpha >= 1 || toColor.a < 1) return to;
  const a = Math.round(oldAlpha * 1000) / 1000;
  return `rgba(${toColor.r}, ${toColor.g}, ${toColor.b}, ${a})`;
}

/** HSL saturation and lightness in 0..1. */
export function saturationLightness(c: Rgba): { s: number; l: number } {
  const r = c.r / 255;
  const g = c.g / 255;
  const b = c.b / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  return { s, l };
}

/** A colour that reads as a brand colour: not a grey, not near white or black, not invisible. */
export function isSaturated(c: Rgba): boolean {
  const { s, l } = saturationLightness(c);
  return c.a > 0.2 && s >= 0.25 && l >= 0.12 && l <= 0.92;
}

export interface ColorToken {
  start: number;
  end: number;
  color: Rgba;
  kind: 'hex' | 'function' | 'name';
}

const COLOR_FUNCTIONS = new Set(['rgb(', 'rgba(', 'hsl(', 'hsla(']);

/** Colours written in a CSS value, with their offsets (names only when `names`). */
export function findColors(value: string, names: boolean): ColorToken[] {
  const out: ColorToken[] = [];
  let fnStart = -1;
  let depth = 0;
  let inUrl = 0;
  tokenize(value, (type, start, end) => {
    if (fnStart >= 0) {
      if (type === tokenTypes.Function || type === tokenTypes.LeftParenthesis) depth++;
      else if (type === tokenTypes.RightParenthesis && --depth === 0) {
        const color = parseColor(value.slice(fnStart, end));
        if (color) out.push({ start: fnStart, end, color, kind: 'function' });
        fnStart = -1;
      }
      return;
    }
    if (type === tokenTypes.Function) {
      const name = value.slice(start, end).toLowerCase();
      if (COLOR_FUNCTIONS.has(name) && inUrl === 0) {
        fnStart = start;
        depth = 1;
      } else if (name === 'url(' || inUrl > 0) inUrl++;
    } else if (type === tokenTypes.LeftParenthesis && inUrl > 0) inUrl++;
    else if (type === tokenTypes.RightParenthesis && inUrl > 0) inUrl--;
    else if (type === tokenTypes.Hash && inUrl === 0) {
      const color = parseColor(value.slice(start, end));
      if (color) out.push({ start, end, color, kind: 'hex' });
    } else if (type === tokenTypes.Ident && names && inUrl === 0) {
      const text = value.slice(start, end);
      const color = isColorName(text) ? parseColor(text) : undefined;
      if (color) out.push({ start, end, color, kind: 'name' });
    }
  });
  return out;
}
