/**
 * How idea text and catalogue text become search terms: lower case, Latin accents dropped
 * (café → cafe, fotografía → fotografia), filler words removed, English words stemmed.
 * The same function indexes the catalogue and reads queries, so both sides always agree.
 */

/** Splits on whitespace and punctuation, as MiniSearch's default tokenizer does. */
export const TOKEN_SEPARATOR = /[\n\r\p{Z}\p{P}\p{S}]+/u;

/** Lower case; accents dropped from Latin letters only (Devanagari and Thai vowel signs are marks too). */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{Mn}+/gu, '$1')
    .normalize('NFC');
}

export function tokenize(text: string): string[] {
  return normalizeText(text)
    .split(TOKEN_SEPARATOR)
    .filter((token) => token.length > 0);
}

/**
 * Words that say nothing about which site to show: English fillers and the "a website for my …"
 * words of the other Latin and Cyrillic script languages (other scripts are not tokenized into words).
 */
const STOPWORDS = new Set(
  [
    // English
    'a an the and or of for to in on at by with from about into my our your their his her its i we',
    'me us you they it is are be am was this that these those want need would like make build',
    'create creating building made new some any good best nice simple modern beautiful cool clean',
    'website websites site sites web page pages homepage something kind type sort',
    'which who where how what will can should just also very really please idea',
    // Spanish, Portuguese, Italian, French, German
    'un una unos unas el la los las de del y o para por con en mi mis su sus que quiero necesito',
    'sitio pagina web uma um o os as do da dos das e em com meu minha per il lo gli le di della',
    'mio mia sito une des du et pour avec mon ma mes ein eine einen der die das und fur mit mein',
    'meine seite webseite',
    // Russian
    'и в во на для с со по о об мой моя мое мои наш наша сайт сайта сайтов страница веб хочу нужен',
    'нужна нужно создать сделать',
    // Indonesian
    'dan untuk yang dengan di ke dari saya kami situs halaman ingin buat membuat sebuah',
  ]
    .join(' ')
    .split(' '),
);

export function isStopword(term: string): boolean {
  return STOPWORDS.has(term);
}

const VOWEL = /[aeiouy]/;

/**
 * A small English suffix stemmer: plurals first, then one derivational ending, never leaving
 * fewer than four letters. Enough to meet "photographer"/"photography", "bakeries"/"bakery",
 * "weddings"/"wedding". Words with letters outside a-z pass through untouched.
 */
export function stemWord(word: string): string {
  if (!/^[a-z]+$/.test(word) || word.length <= 3) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(ches|shes|xes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w) && w.length > 4) w = w.slice(0, -1);

  for (const suffix of ['ing', 'ers', 'er', 'ed', 'ly', 'y']) {
    const stem = w.slice(0, -suffix.length);
    if (w.endsWith(suffix) && stem.length >= 4 && VOWEL.test(stem)) return stem;
  }
  return w;
}

/** MiniSearch `processTerm`: one token in, one term out, or nothing for a filler word. */
export function processTerm(token: string): string | null {
  const term = normalizeText(token);
  if (term.length === 0 || isStopword(term)) return null;
  return stemWord(term);
}
