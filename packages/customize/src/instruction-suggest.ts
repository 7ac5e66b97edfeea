import { isColorName } from './colors.js';
import { buttonsOf, LANDMARKS, pageSpelling, partNames, phonesOf } from './instruction-outline.js';
import { normalize, unquote } from './instruction-text.js';
import { colorValue, emailsIn, isPhone, vagueColor } from './instruction-values.js';
import type { PageOutline } from './outline.js';

/**
 * The closest phrasings the built-in engine supports for a part of a message it could not use:
 * a spelling fixed ("chnage the titel to …"), the instruction it most resembles ("make the logo
 * crimson-ish" → "Set the main colour to crimson"), or, for a wish about the look as a whole
 * ("make it pop", "use a warmer palette"), the looks the engine can set that come nearest.
 */

/**
 * Wishes about the look of the whole site, and the nearest looks the engine can set (colours,
 * fonts, heading sizes, dark or light mode), best first. Checked in order.
 */
const LOOK_WISHES: readonly (readonly [RegExp, readonly string[]])[] = [
  [
    /\b(?:readable|legible|easier\s+to\s+read|hard\s+to\s+read)\b/,
    ['Make the text bigger', 'Make the headings bigger'],
  ],
  [
    /\b(?:warm(?:er|th)?|cozy|cosy|earthy|autumn(?:al)?|inviting)\b/,
    ['Set the main colour to coral', 'Set the background colour to ivory'],
  ],
  [
    /\b(?:cool(?:er)?|calm(?:er)?|serene|soothing|relaxed)\b/,
    ['Set the main colour to teal', 'Set the background colour to azure'],
  ],
  [
    /\b(?:pop(?:s|py)?|vibrant|vivid|punch(?:y|ier)|lively|livelier|energetic|stand\s+out|eye-?catching|exciting|striking|colou?rful|brighter\s+colou?rs?|zing|wow)\b/,
    ['Set the main colour to crimson', 'Make the headings bigger', 'Set the accent colour to gold'],
  ],
  [
    /\b(?:modern|fresh|clean(?:er)?|minimal(?:ist)?|sleek|contemporary|up-?to-?date|simpler)\b/,
    ['Change the font to Inter', 'Use light mode'],
  ],
  [
    /\b(?:elegant|classy|classic|luxur\w*|sophisticated|premium|timeless|refined|fancy)\b/,
    ['Change the font to Playfair Display', 'Set the main colour to black'],
  ],
  [
    /\b(?:playful|fun|friendl(?:y|ier)|cheerful|happ(?:y|ier)|whimsical|cute)\b/,
    ['Change the font to Nunito', 'Set the main colour to orange'],
  ],
  [
    /\b(?:professional|serious|corporate|trustworthy|formal|business-?like)\b/,
    ['Set the main colour to navy', 'Change the font to Georgia'],
  ],
  [
    /\b(?:nicer|prettier|better|beautiful|attractive|look\s+good|polished|design|style|theme|palette|colou?r\s+scheme|vibe|feel)\b/,
    ['Set the main colour to crimson', 'Change the font to Inter', 'Make the headings bigger'],
  ],
];

/** A part about particular copy ("make the tagline friendlier"): its words, not the site's look. */
const NAMES_COPY =
  /\b(?:tagline|subtitle|slogan|subheading|heading|headline|title|button|logo|name|description|phone|e-?mail|address|link|menu|footer|header|text\s+of)\b/;

/** Words of the grammar a typo is measured against. */
const VOCABULARY = [
  'change',
  'replace',
  'remove',
  'delete',
  'hide',
  'make',
  'set',
  'use',
  'rename',
  'update',
  'switch',
  'add',
  'insert',
  'colour',
  'color',
  'background',
  'primary',
  'accent',
  'main',
  'brand',
  'theme',
  'font',
  'typeface',
  'heading',
  'headings',
  'headline',
  'title',
  'tagline',
  'subtitle',
  'description',
  'footer',
  'header',
  'navigation',
  'menu',
  'sidebar',
  'logo',
  'button',
  'link',
  'phone',
  'number',
  'email',
  'address',
  'banner',
  'cookie',
  'newsletter',
  'popup',
  'section',
  'bigger',
  'smaller',
  'dark',
  'light',
  'mode',
  'text',
  'with',
  'the',
  'everywhere',
  'image',
  'picture',
];

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      // A swap of two neighbours counts as one typo.
      const swapped =
        i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] ? diag : Infinity;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + cost, swapped);
      diag = up;
    }
  }
  return prev[b.length] as number;
}

function closestWord(word: string, words: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  if (lower.length < 3 || words.includes(lower)) return undefined;
  const limit = lower.length >= 7 ? 2 : 1;
  let best: { w: string; d: number } | undefined;
  for (const w of words) {
    if (Math.abs(w.length - lower.length) > limit) continue;
    const d = distance(lower, w);
    if (d <= limit && (!best || d < best.d)) best = { w, d };
  }
  return best?.w;
}

const COLOR_WORDS = [
  'red',
  'blue',
  'green',
  'crimson',
  'black',
  'white',
  'orange',
  'purple',
  'yellow',
  'pink',
  'teal',
  'navy',
  'grey',
  'gray',
  'brown',
  'gold',
  'silver',
  'maroon',
  'turquoise',
  'violet',
];

/** The message with misspelt grammar words fixed, when that changes anything. */
function fixTypos(text: string): string | undefined {
  let changed = false;
  const fixed = text.replace(/[\p{L}]+/gu, (word) => {
    const fix = closestWord(word, VOCABULARY) ?? closestWord(word, COLOR_WORDS);
    if (!fix || isColorName(word)) return word;
    changed = true;
    return word[0] === word[0]?.toUpperCase() ? fix[0]?.toUpperCase() + fix.slice(1) : fix;
  });
  return changed ? fixed : undefined;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function colorIn(text: string): string | undefined {
  for (const m of text.matchAll(/#?[\p{L}\p{N}-]+/gu)) {
    const word = m[0];
    if (/^#/.test(word)) {
      const hex = colorValue(word);
      if (hex) return hex;
      continue;
    }
    const exact = isColorName(word) ? word.toLowerCase() : undefined;
    const found = exact ?? vagueColor(word);
    if (found) return found;
  }
  return undefined;
}

function colorRoleIn(text: string): string {
  if (/\b(?:background|bg|backdrop)\b/i.test(text)) return 'background colour';
  if (/\b(?:text|writing|font|words|letters)\b/i.test(text)) return 'text colour';
  if (/\b(?:accent|highlight|secondary)\b/i.test(text)) return 'accent colour';
  return 'main colour';
}

function bestPart(words: string, outline: PageOutline | undefined): string | undefined {
  if (!outline) return undefined;
  const names = partNames(outline);
  const wanted = words
    .toLowerCase()
    .split(/\W+/)
    .filter((w) => w.length > 2 && !/^(?:the|our|all|and|section|part|block|area)$/.test(w));
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    let score = 0;
    for (const word of wanted) {
      // "menu" names the nav, "sidebar" the aside.
      const w = LANDMARKS[word] ?? word;
      for (const n of name.split(' ')) {
        if (n === w) score += 3;
        else if (Math.min(n.length, w.length) >= 4 && (n.includes(w) || w.includes(n))) score += 2;
        else if (distance(n, w) <= 2) score += 1;
      }
    }
    if (!best || score > best.score) best = { name, score };
  }
  return best && best.score > 0 ? best.name : undefined;
}

/** Whether a text is written on the page. */
function onPage(text: string, outline: PageOutline): boolean {
  const lower = text.toLowerCase();
  return [
    outline.title ?? '',
    ...outline.headings.map((h) => h.text),
    ...outline.texts.map((t) => t.text),
    ...outline.links.map((l) => l.text),
  ].some((t) => t.toLowerCase().includes(lower));
}

/** The texts on each side of "… to …" / "… with …", for a replacement suggestion. */
function fromTo(text: string): { from: string; to: string } | undefined {
  const m =
    /^(?:change|replace|swap|update|make|switch|rename|edit|turn)\s+(.+?)\s+(?:to|with|into|for)\s+(.+)$/i.exec(
      text,
    );
  if (!m) return undefined;
  const from = unquote((m[1] ?? '').replace(/^(?:the|all|every)\s+/i, '')).text;
  const to = unquote(m[2] ?? '').text;
  return from && to ? { from, to } : undefined;
}

/**
 * Suggestions for a part of a message that was not understood (`note` says why an understood
 * part could not be used), best first; none when nothing the engine can do comes close (rounded
 * corners, shadows, the order of sections). `parses` tells whether a phrasing would be understood.
 */
export function suggestFor(
  part: string,
  outline: PageOutline | undefined,
  parses: (text: string) => boolean,
  note?: string,
): string[] {
  const found = closestPhrasings(part, outline, parses, note);
  // A list of nearest looks keeps those this page takes.
  return typeof found === 'string' ? [found] : found.filter(parses);
}

function closestPhrasings(
  part: string,
  outline: PageOutline | undefined,
  parses: (text: string) => boolean,
  note?: string,
): string | readonly string[] {
  const text = normalize(part);
  const fixed = fixTypos(text);
  if (fixed !== undefined && parses(fixed)) return capitalize(fixed);
  const lower = text.toLowerCase();
  const removal = /^(remove|delete|hide|get rid of|drop|take out|disable)\b\s*(.*)$/i.exec(text);

  if (removal) {
    const verb = capitalize((removal[1] ?? 'remove').toLowerCase());
    const names = outline ? partNames(outline) : [];
    const part =
      bestPart(removal[2] ?? '', outline) ??
      names.find((n) => /^(?:footer|header|nav|aside)$/.test(n)) ??
      names[0] ??
      'footer';
    return `${verb} the ${part}`;
  }
  // "Send the form to the sales team": a form's mails go to an address, written out.
  if (
    /\bforms?\b/.test(lower) &&
    /\b(?:send|forward|go|mail|e-?mail|recipient|deliver)/.test(lower)
  ) {
    const email = emailsIn(text)[0] ?? 'sales@example.com';
    const which = /newsletter|subscri|sign-?up/.test(lower) ? 'newsletter form' : 'contact form';
    return `Send the ${which} to ${email}`;
  }
  const url = /\b(?:https?:\/\/\S+|\/\S+\.(?:png|jpe?g|gif|svg|webp|avif))/i.exec(text)?.[0];
  if (url && /\b(?:image|picture|photo|background|banner|hero)\b/i.test(text)) {
    const image = outline?.images.find((i) => !i.logo);
    return image ? `Replace the image ${image.src} with ${url}` : `Change the hero image to ${url}`;
  }
  // Looks the engine cannot set (alignment, weight, shapes, order): no phrasing comes close.
  if (
    /\b(?:cent(?:er|re)|align|bold|italic|underline|rounded?|shadows?|animat\w*|reorder|order|spacing|padding|margins?)\b/.test(
      lower,
    )
  ) {
    return [];
  }
  const color = colorIn(text);
  if (color && !/\b(?:font|typeface)\b/i.test(text)) {
    return `Set the ${colorRoleIn(lower)} to ${color}`;
  }
  if (/\b(?:dark|darker|night|black|moody)\b/.test(lower)) return 'Use dark mode';
  if (!NAMES_COPY.test(lower)) {
    const wish = LOOK_WISHES.find(([re]) => re.test(lower));
    if (wish) return wish[1];
  }
  if (/\bcolou?rs?\b/.test(lower)) return `Set the ${colorRoleIn(lower)} to navy`;
  if (/\b(?:light|lighter|brighter|white)\b/.test(lower)) return 'Use light mode';
  if (/\b(?:bigger|larger|smaller|size|huge|tiny)\b/.test(lower)) {
    const which = /\b(?:heading|headings|headline|title|titles)\b/.test(lower)
      ? 'headings'
      : 'text';
    return `Make the ${which} ${/\b(?:smaller|tiny)\b/.test(lower) ? 'smaller' : 'bigger'}`;
  }
  if (/\b(?:font|typeface|serif|sans)\b/.test(lower)) return 'Change the font to Georgia';
  if (/\blogo\b/.test(lower)) {
    if (/\b(?:text|name|say|says|read|word|words|called)\b/.test(lower) || note !== undefined) {
      return /picture/i.test(note ?? '')
        ? 'Replace the logo with https://example.com/logo.png'
        : 'Change the logo text to "New name"';
    }
    return 'Replace the logo with https://example.com/logo.png';
  }
  if (/\b(?:phone|telephone|tel|mobile\s+number|number)\b/.test(lower)) {
    const number = /(\+?[\d][\d\s().-]{5,}\d)/.exec(text)?.[1];
    if (number && isPhone(number)) {
      const known = outline ? phonesOf(outline).texts.length > 0 : false;
      return known
        ? `Change the phone number to ${number}`
        : `Replace "current number" with "${number}"`;
    }
    return 'Change the phone number to +1 555 0100';
  }
  if (/\be-?mail\b/.test(lower)) {
    const email = emailsIn(text)[0];
    if (email && note !== undefined) return `Replace "current address" with "${email}"`;
    return `Change the email address to ${email ?? 'hello@example.com'}`;
  }
  if (/\baddress\b/.test(lower)) return 'Change the address to "1 Main Street, Springfield"';
  if (/\bbutton\b/.test(lower)) {
    const main = outline ? buttonsOf(outline)[0] : undefined;
    return `Change the "${main ?? 'Subscribe'}" button to say "Join now"`;
  }
  if (/^(?:add|insert|put|include)\b/i.test(text)) {
    return 'Add "Your text" at the end of the footer';
  }
  if (/\b(?:tagline|subtitle|slogan|subheading)\b/.test(lower)) {
    return 'Change the tagline to "Your new tagline"';
  }
  if (/\b(?:heading|headline|h1)\b/.test(lower)) return 'Change the main heading to "New heading"';
  if (/\b(?:description|seo|google)\b/.test(lower)) {
    return 'Set the description to "What the site is about"';
  }
  if (/\b(?:title|name)\b/.test(lower)) return 'Set the title to "New title"';
  const pair = fromTo(text);
  if (
    pair &&
    (!outline || pageSpelling(pair.from, outline) !== pair.from || onPage(pair.from, outline))
  ) {
    return `Replace "${pair.from}" with "${pair.to}"`;
  }
  return 'Replace "old text" with "new text"';
}
