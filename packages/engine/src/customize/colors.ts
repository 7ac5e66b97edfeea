import { tokenize, tokenTypes } from 'css-tree';

/** A colour in sRGB: r, g, b in 0..255, alpha in 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** CSS named colours: each entry is the name followed by its six hex digits. */
const NAMED_TABLE =
  'alicebluef0f8ff antiquewhitefaebd7 aqua00ffff aquamarine7fffd4 azuref0ffff beigef5f5dc ' +
  'bisqueffe4c4 black000000 blanchedalmondffebcd blue0000ff blueviolet8a2be2 browna52a2a ' +
  'burlywooddeb887 cadetblue5f9ea0 chartreuse7fff00 chocolated2691e coralff7f50 ' +
  'cornflowerblue6495ed cornsilkfff8dc crimsondc143c cyan00ffff darkblue00008b ' +
  'darkcyan008b8b darkgoldenrodb8860b darkgraya9a9a9 darkgreen006400 darkgreya9a9a9 ' +
  'darkkhakibdb76b darkmagenta8b008b darkolivegreen556b2f darkorangeff8c00 darkorchid9932cc ' +
  'darkred8b0000 darksalmone9967a darkseagreen8fbc8f darkslateblue483d8b darkslategray2f4f4f ' +
  'darkslategrey2f4f4f darkturquoise00ced1 darkviolet9400d3 deeppinkff1493 deepskyblue00bfff ' +
  'dimgray696969 dimgrey696969 dodgerblue1e90ff firebrickb22222 floralwhitefffaf0 ' +
  'forestgreen228b22 fuchsiaff00ff gainsborodcdcdc ghostwhitef8f8ff goldffd700 ' +
  'goldenroddaa520 gray808080 green008000 greenyellowadff2f grey808080 honeydewf0fff0 ' +
  'hotpinkff69b4 indianredcd5c5c indigo4b0082 ivoryfffff0 khakif0e68c lavendere6e6fa ' +
  'lavenderblushfff0f5 lawngreen7cfc00 lemonchiffonfffacd lightblueadd8e6 lightcoralf08080 ' +
  'lightcyane0ffff lightgoldenrodyellowfafad2 lightgrayd3d3d3 lightgreen90ee90 ' +
  'lightgreyd3d3d3 lightpinkffb6c1 lightsalmonffa07a lightseagreen20b2aa lightskyblue87cefa ' +
  'lightslategray778899 lightslategrey778899 lightsteelblueb0c4de lightyellowffffe0 ' +
  'lime00ff00 limegreen32cd32 linenfaf0e6 magentaff00ff maroon800000 mediumaquamarine66cdaa ' +
  'mediumblue0000cd mediumorchidba55d3 mediumpurple9370db mediumseagreen3cb371 ' +
  'mediumslateblue7b68ee mediumspringgreen00fa9a mediumturquoise48d1cc mediumvioletredc71585 ' +
  'midnightblue191970 mintcreamf5fffa mistyroseffe4e1 moccasinffe4b5 navajowhiteffdead ' +
  'navy000080 oldlacefdf5e6 olive808000 olivedrab6b8e23 orangeffa500 orangeredff4500 ' +
  'orchidda70d6 palegoldenrodeee8aa palegreen98fb98 paleturquoiseafeeee palevioletreddb7093 ' +
  'papayawhipffefd5 peachpuffffdab9 perucd853f pinkffc0cb plumdda0dd powderblueb0e0e6 ' +
  'purple800080 rebeccapurple663399 redff0000 rosybrownbc8f8f royalblue4169e1 ' +
  'saddlebrown8b4513 salmonfa8072 sandybrownf4a460 seagreen2e8b57 seashellfff5ee ' +
  'siennaa0522d silverc0c0c0 skyblue87ceeb slateblue6a5acd slategray708090 slategrey708090 ' +
  'snowfffafa springgreen00ff7f steelblue4682b4 tand2b48c teal008080 thistled8bfd8 ' +
  'tomatoff6347 turquoise40e0d0 violetee82ee wheatf5deb3 whiteffffff whitesmokef5f5f5 ' +
  'yellowffff00 yellowgreen9acd32';

const NAMED = new Map<string, string>(
  NAMED_TABLE.split(' ').map((entry) => [entry.slice(0, -6), `#${entry.slice(-6)}`]),
);

export function isColorName(name: string): boolean {
  return NAMED.has(name.toLowerCase());
}

/** The name of a colour when it has one (`#ff0000` → `red`). */
export function nameOfColor(color: Rgba): string | undefined {
  const hex = colorKey(color);
  for (const [name, value] of NAMED) if (value === hex && !name.includes('grey')) return name;
  return undefined;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function channel(arg: string, percentScale: number): number | undefined {
  if (arg === 'none') return 0;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(%?)$/i.exec(arg);
  if (!m) return undefined;
  const n = parseFloat(m[1] ?? '');
  return m[2] ? (n / 100) * percentScale : n;
}

function hue(arg: string): number | undefined {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(deg|grad|rad|turn)?$/i.exec(arg);
  if (!m) return arg === 'none' ? 0 : undefined;
  const n = parseFloat(m[1] ?? '');
  switch ((m[2] ?? 'deg').toLowerCase()) {
    case 'grad':
      return (n * 360) / 400;
    case 'rad':
      return (n * 180) / Math.PI;
    case 'turn':
      return n * 360;
    default:
      return n;
  }
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** Parses hex, rgb()/rgba(), hsl()/hsla() and named colours; undefined for anything else. */
export function parseColor(text: string): Rgba | undefined {
  const t = text.trim().toLowerCase();
  if (t.startsWith('#')) {
    const hex = t.slice(1);
    if (!/^(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(hex)) return undefined;
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const byte = (k: number) => parseInt(full.slice(k, k + 2), 16);
    return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
  }
  const named = NAMED.get(t);
  if (named) return parseColor(named);
  const m = /^(rgba?|hsla?)\(([^()]*)\)$/.exec(t);
  if (!m) return undefined;
  const [body, alphaPart] = (m[2] ?? '').split('/');
  const args = (body ?? '').split(/[\s,]+/).filter(Boolean);
  if (alphaPart !== undefined) args.push(alphaPart.trim());
  if (args.length < 3 || args.length > 4) return undefined;
  const alpha = args[3] === undefined ? 1 : channel(args[3], 1);
  if (alpha === undefined) return undefined;
  let rgb: [number, number, number];
  if (m[1]?.startsWith('rgb')) {
    const values = args.slice(0, 3).map((a) => channel(a, 255));
    if (values.some((v) => v === undefined)) return undefined;
    rgb = values as [number, number, number];
  } else {
    const h = hue(args[0] ?? '');
    const s = channel(args[1] ?? '', 1);
    const l = channel(args[2] ?? '', 1);
    if (h === undefined || s === undefined || l === undefined) return undefined;
    // Unitless saturation/lightness (modern syntax) are percentages too.
    const frac = (v: number, arg: string) => (arg.endsWith('%') ? v : v / 100);
    rgb = hslToRgb(
      ((h % 360) + 360) % 360,
      clamp(frac(s, args[1] ?? ''), 0, 1),
      clamp(frac(l, args[2] ?? ''), 0, 1),
    );
  }
  const [r, g, b] = rgb.map((v) => Math.round(clamp(v, 0, 255)));
  return { r: r ?? 0, g: g ?? 0, b: b ?? 0, a: clamp(alpha, 0, 1) };
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
      const color = NAMED.has(text.toLowerCase()) ? parseColor(text) : undefined;
      if (color) out.push({ start, end, color, kind: 'name' });
    }
  });
  return out;
}
