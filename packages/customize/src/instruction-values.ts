import { colorKey, isColorName, nameOfColor, parseColor } from './colors.js';
import { INSTRUCTION_LIMITS, unquote } from './instruction-text.js';

/** What the words of an instruction stand for: colours, fonts, addresses, phone numbers. */

/** Everyday colour names that CSS does not know, as the colour they usually mean. */
export const EXTRA_COLORS: Record<string, string> = {
  burgundy: '#800020',
  charcoal: '#36454f',
  cream: '#fffdd0',
  'off-white': '#faf9f6',
  offwhite: '#faf9f6',
  mint: '#98ff98',
  mustard: '#e1ad01',
  emerald: '#50c878',
  ruby: '#e0115f',
  sapphire: '#0f52ba',
  'navy blue': '#000080',
  navyblue: '#000080',
  'sky blue': '#87ceeb',
  'baby blue': '#89cff0',
  babyblue: '#89cff0',
  'forest green': '#228b22',
  terracotta: '#e2725b',
  'terra cotta': '#e2725b',
  sage: '#9caf88',
  'sage green': '#9caf88',
  peach: '#ffcba4',
  lilac: '#c8a2c8',
  'blood red': '#8a0303',
  'brick red': '#cb4154',
  'bright red': '#ff0000',
  'bright blue': '#0096ff',
  'bright green': '#66ff00',
};

const EXTRA_NAMES = new Map<string, string>();
for (const [name, hex] of Object.entries(EXTRA_COLORS)) {
  if (!EXTRA_NAMES.has(hex)) EXTRA_NAMES.set(hex, name);
}

/** A colour as written by a person: names, `#hex`, bare hex, `rgb()`, "crimson (#dc143c)". */
export function colorValue(raw: string): string | undefined {
  const { text } = unquote(raw);
  const t = text
    .trim()
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/^(?:colou?r\s+)?/i, '')
    .replace(/\s+colou?r$/i, '')
    .trim();
  if (!t || t.length > 60) return undefined;
  const whole = singleColor(t);
  if (whole) return whole;
  const pair = /^(.+?)\s*\(\s*(.+?)\s*\)$/.exec(t);
  if (pair) {
    const a = singleColor(pair[1] ?? '');
    const b = singleColor(pair[2] ?? '');
    if (a && b) return /^(?:#|rgb|hsl)/i.test(a) ? a : /^(?:#|rgb|hsl)/i.test(b) ? b : a;
    return a ?? b;
  }
  return undefined;
}

function singleColor(t: string): string | undefined {
  const s = t.trim();
  if (/^(?:rgb|hsl)a?\(/i.test(s)) return parseColor(s) ? s : undefined;
  if (/^#/.test(s)) return parseColor(s) ? s : undefined;
  if (/^(?:[0-9a-f]{6}|[0-9a-f]{3})$/i.test(s) && /\d/.test(s)) return `#${s}`;
  const lower = s.toLowerCase();
  const extra = EXTRA_COLORS[lower] ?? EXTRA_COLORS[lower.replace(/\s+/g, ' ')];
  if (extra) return extra;
  if (!/^[a-z][a-z\s-]*$/i.test(s)) return undefined;
  if (isColorName(lower)) return lower === s ? s : lower;
  const joined = lower.replace(/[\s-]+/g, '');
  if (isColorName(joined)) return joined;
  // "crimson red": a colour named twice, the first name the precise one.
  const words = lower.split(/[\s-]+/);
  return words.length === 2 && words.every(isColorName) ? words[0] : undefined;
}

/** "crimson-ish", "reddish", "bluey": the colour a vague word leans to. */
export function vagueColor(word: string): string | undefined {
  const w = word.toLowerCase().replace(/[^a-z-]/g, '');
  const stems = [
    w.replace(/-?ish$/, ''),
    w.replace(/-?(?:ish|y)$/, ''),
    w.replace(/dish$/, 'd'),
    w.replace(/ish$/, 'e'),
    w.replace(/lish$/, 'le'),
    w.replace(/ey$/, 'e'),
  ];
  for (const stem of stems) {
    if (stem !== w && stem.length >= 3 && isColorName(stem)) return stem;
  }
  return undefined;
}

/** How a colour is told to a person: "#dc143c (crimson)", "crimson (#dc143c)". */
export function colorLabel(value: string): string {
  const rgba = parseColor(value);
  if (!rgba) return value;
  const hex = colorKey(rgba);
  const name = nameOfColor(rgba) ?? EXTRA_NAMES.get(hex);
  if (isColorName(value.trim())) {
    return value.trim().toLowerCase() === hex ? value : `${value.trim()} (${hex})`;
  }
  return name ? `${value} (${name})` : value;
}

/** Fonts every system has: no web font stylesheet is added for them. */
export const SYSTEM_FONTS = new Set([
  'arial',
  'helvetica',
  'helvetica neue',
  'georgia',
  'times',
  'times new roman',
  'verdana',
  'tahoma',
  'trebuchet ms',
  'courier',
  'courier new',
  'segoe ui',
  'garamond',
  'palatino',
  'impact',
  'comic sans ms',
  'system-ui',
  'sans-serif',
  'serif',
  'monospace',
  'cursive',
]);

/** Font families people name, spelled as their foundries do (Google Fonts needs the exact name). */
const KNOWN_FONTS = [
  'Arial',
  'Helvetica',
  'Helvetica Neue',
  'Georgia',
  'Times New Roman',
  'Verdana',
  'Tahoma',
  'Trebuchet MS',
  'Courier New',
  'Segoe UI',
  'Garamond',
  'Palatino',
  'Impact',
  'Comic Sans MS',
  'Inter',
  'Roboto',
  'Roboto Slab',
  'Roboto Mono',
  'Open Sans',
  'Lato',
  'Montserrat',
  'Poppins',
  'Raleway',
  'Nunito',
  'Nunito Sans',
  'Oswald',
  'Merriweather',
  'Playfair Display',
  'Lora',
  'PT Sans',
  'PT Serif',
  'Source Sans 3',
  'Source Sans Pro',
  'Source Serif Pro',
  'Work Sans',
  'DM Sans',
  'DM Serif Display',
  'Rubik',
  'Fira Sans',
  'Noto Sans',
  'Noto Serif',
  'Ubuntu',
  'Mulish',
  'Quicksand',
  'Karla',
  'Cabin',
  'Barlow',
  'Manrope',
  'Libre Baskerville',
  'Libre Franklin',
  'EB Garamond',
  'Cormorant Garamond',
  'Crimson Text',
  'Crimson Pro',
  'Josefin Sans',
  'Archivo',
  'Bitter',
  'Arvo',
  'Space Grotesk',
  'IBM Plex Sans',
  'IBM Plex Serif',
  'IBM Plex Mono',
  'JetBrains Mono',
  'Fira Code',
  'Outfit',
  'Lexend',
  'Figtree',
  'Plus Jakarta Sans',
  'Bebas Neue',
  'Abril Fatface',
  'Pacifico',
  'Lobster',
  'Dancing Script',
  'Caveat',
  'Inconsolata',
  'Space Mono',
  'Zilla Slab',
  'Alegreya',
  'Spectral',
  'Cinzel',
  'Sora',
];
const KNOWN_BY_LOWER = new Map(KNOWN_FONTS.map((f) => [f.toLowerCase(), f]));
KNOWN_BY_LOWER.set('comic sans', 'Comic Sans MS');
KNOWN_BY_LOWER.set('times', 'Times New Roman');
KNOWN_BY_LOWER.set('source sans', 'Source Sans 3');
KNOWN_BY_LOWER.set('playfair', 'Playfair Display');
const GENERIC_FONTS: Record<string, string> = {
  'sans serif': 'sans-serif',
  'sans-serif': 'sans-serif',
  sans: 'sans-serif',
  serif: 'serif',
  monospace: 'monospace',
  mono: 'monospace',
};

const VAGUE_FONT_WORDS =
  /\b(?:something|anything|more|less|modern|nicer|nice|better|different|cool|fancy|pretty|prettier|other|new|bigger|smaller|larger|bold|italic|like|similar|cleaner|clean|readable|elegant|professional|to|for|and|with|that|is|bit|size|same|one|it|this|default|normal|standard)\b/i;

/** A font family from the words naming it ("georgia" → Georgia), or undefined. */
export function fontFamily(raw: string, strict: boolean): string | undefined {
  let family = unquote(raw)
    .text.trim()
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/^(?:font\s+|typeface\s+)?/i, '')
    .replace(/\s+(?:font(?:\s+family)?|typeface|fonts)$/i, '')
    .replace(/^["'“‘]|["'”’]$/g, '')
    .trim();
  if (!/^[\p{L}\p{N}][\p{L}\p{N} .-]{0,99}$/u.test(family)) return undefined;
  const lower = family.toLowerCase().replace(/\s+/g, ' ');
  const known = KNOWN_BY_LOWER.get(lower) ?? GENERIC_FONTS[lower];
  if (known) return known;
  if (
    strict &&
    !/\b(?:sans|serif|mono|display|slab|grotesk|grotesque|script|text|pro)$/i.test(family)
  )
    return undefined;
  // "something more modern" is a wish, not a family.
  if (family.split(/\s+/).length > 4 || VAGUE_FONT_WORDS.test(family)) return undefined;
  if (family === lower) family = family.replace(/\b\p{L}/gu, (ch) => ch.toUpperCase());
  return family;
}

export function fontStylesheet(family: string): string | undefined {
  if (SYSTEM_FONTS.has(family.toLowerCase())) return undefined;
  return `https://fonts.googleapis.com/css2?family=${encodeURIComponent(family).replace(/%20/g, '+')}&display=swap`;
}

/** An address a link or image can take; a bare domain gets `https://`. */
export function urlOf(v: string): string | undefined {
  const { text } = unquote(v);
  const t = text.trim();
  if (/\s/.test(t) || t.length === 0 || t.length > INSTRUCTION_LIMITS.maxUrlLength)
    return undefined;
  if (/^(?:https?:\/\/|\/|#|mailto:|tel:|\.\.?\/|data:image\/)/i.test(t)) return t;
  if (/^[\w-]+(?:\.[\w-]+)+(?:[/?#]\S*)?$/.test(t) && /\.[a-z]{2,}(?:[/?#]|$)/i.test(t)) {
    if (isEmail(t)) return undefined;
    return `https://${t}`;
  }
  return undefined;
}

const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d{1,5}(?:[\s.-]\d{1,5}){0,5}/g;

function digitCount(text: string): number {
  return text.replace(/\D/g, '').length;
}

/** A phone number as a person types it: +1 555 0100, (555) 010-0199, 020 7946 0958. */
export function isPhone(text: string): boolean {
  const t = text.trim();
  if (!/^[+(\d][\d\s().+-]*\d$/.test(t)) return false;
  const digits = digitCount(t);
  return digits >= 6 && digits <= 15;
}

/** Phone numbers written in a text (not dates, years or prices). */
export function phonesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PHONE)) {
    const found = m[0].trim();
    const digits = digitCount(found);
    if (digits < 7 || digits > 15) continue;
    if (/^(?:19|20)\d\d(?:\s*[-–]\s*(?:19|20)\d\d)?$/.test(found)) continue;
    if (!/[\s.()+-]/.test(found) && digits < 9) continue;
    out.push(found);
  }
  return out;
}

/** `tel:` address of a phone number. */
export function telOf(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;

export function isEmail(text: string): boolean {
  return /^[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}$/i.test(text.trim());
}

export function emailsIn(text: string): string[] {
  return [...text.matchAll(EMAIL)].map((m) => m[0]);
}

const STREET =
  /\b\d{1,5}[a-z]?\s+(?:[\p{Lu}][\p{L}'.-]*\s+){1,4}(?:Street|St\.?|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Lane|Ln\.?|Drive|Dr\.?|Way|Court|Ct\.?|Place|Pl\.?|Square|Sq\.?|Terrace|Parkway|Pkwy\.?|Highway|Hwy\.?|Row|Close|Crescent|Gardens|Hill|Strasse|Straße)\b/u;

/** The postal address in a text: from the street number to the end (or the next contact detail). */
export function postalAddressIn(text: string): string | undefined {
  const m = STREET.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m.index);
  const cut = rest.search(/\s+(?:[|•·–—]\s|(?:phone|tel|call|e-?mail|fax|mobile)\b)/i);
  return (cut >= 0 ? rest.slice(0, cut) : rest).trim().replace(/[,;]$/, '');
}
