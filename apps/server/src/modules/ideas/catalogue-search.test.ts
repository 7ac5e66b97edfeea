import { describe, expect, it } from 'vitest';
import { searchCatalogue } from './catalogue-search.js';
import { expandIdea } from './idea-synonyms.js';
import { processTerm, stemWord } from './idea-terms.js';

/** Idea → the category expected first (top: 1) or among the first three (top: 3). */
const IDEAS: { lang: string; idea: string; category: string; top: 1 | 3 }[] = [
  {
    lang: 'en',
    idea: 'A cozy Italian restaurant with an online menu and reservations',
    category: 'restaurant',
    top: 1,
  },
  { lang: 'en', idea: 'Portfolio for a freelance UX designer', category: 'portfolio', top: 1 },
  { lang: 'en', idea: 'SaaS landing page for a project management tool', category: 'saas', top: 1 },
  { lang: 'en', idea: 'Documentation site for an open source library', category: 'docs', top: 1 },
  { lang: 'en', idea: 'Charity raising money for clean water', category: 'nonprofit', top: 1 },
  {
    lang: 'en',
    idea: 'Real estate agency listing apartments for rent',
    category: 'real-estate',
    top: 1,
  },
  { lang: 'en', idea: 'Tech conference with speakers and a schedule', category: 'event', top: 1 },
  { lang: 'en', idea: 'Law firm specializing in corporate law', category: 'law', top: 1 },
  { lang: 'en', idea: 'Mobile app landing page for a habit tracker', category: 'app', top: 1 },
  { lang: 'en', idea: 'Personal blog with essays about programming', category: 'blog', top: 3 },
  { lang: 'es', idea: 'Tienda online de ropa sostenible', category: 'shop', top: 1 },
  {
    lang: 'es',
    idea: 'Sitio web para un gimnasio con clases de yoga',
    category: 'fitness',
    top: 1,
  },
  { lang: 'es', idea: 'Clínica dental moderna en Madrid', category: 'medical', top: 1 },
  { lang: 'ru', idea: 'Сайт для кофейни в центре города', category: 'cafe', top: 1 },
  { lang: 'ru', idea: 'Лендинг для стартапа', category: 'startup', top: 1 },
  { lang: 'zh', idea: '餐厅网站，展示菜单和在线预订', category: 'restaurant', top: 1 },
  { lang: 'zh', idea: '摄影师作品集网站', category: 'photography', top: 1 },
  { lang: 'ar', idea: 'موقع لعيادة أسنان', category: 'medical', top: 1 },
  { lang: 'hi', idea: 'शादी की वेबसाइट', category: 'wedding', top: 1 },
  { lang: 'th', idea: 'เว็บไซต์โรงแรมริมทะเล', category: 'hotel', top: 1 },
  { lang: 'id', idea: 'Website toko kopi kekinian', category: 'cafe', top: 1 },
  { lang: 'id', idea: 'Sekolah online untuk anak-anak', category: 'education', top: 1 },
  { lang: 'it', idea: 'Ristorante pizzeria a Napoli', category: 'restaurant', top: 1 },
  { lang: 'de', idea: 'Fitnessstudio mit Kursplan', category: 'fitness', top: 1 },
  { lang: 'ja', idea: 'レストランのウェブサイト', category: 'restaurant', top: 1 },
];

describe('idea search over the catalogue', () => {
  it.each(IDEAS)('$lang: "$idea" → $category (top $top)', ({ idea, category, top }) => {
    const results = searchCatalogue(idea, 5);
    const categories = results.map((r) => r.site.category);
    expect(categories.slice(0, top), categories.join(', ')).toContain(category);
  });

  it('covers at least 20 ideas in at least six languages', () => {
    expect(IDEAS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(IDEAS.map((i) => i.lang)).size).toBeGreaterThanOrEqual(6);
  });

  it('ranks best first and answers at most `limit` results', () => {
    const results = searchCatalogue('coffee roaster', 10);
    expect(results).toHaveLength(10);
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(searchCatalogue('coffee roaster', 1)).toHaveLength(1);
  });

  it('forgives a typo and matches word beginnings', () => {
    expect(searchCatalogue('restaurnt', 3)[0]?.site.category).toBe('restaurant');
    expect(searchCatalogue('photo', 3)[0]?.site.category).toBe('photography');
  });

  it('answers nothing rather than noise for an idea with no known word', () => {
    expect(searchCatalogue('zzqxv', 5)).toEqual([]);
    expect(searchCatalogue('website for my', 5)).toEqual([]);
  });
});

describe('idea words', () => {
  it('stems English plurals and endings to a shared form', () => {
    expect(stemWord('photographer')).toBe(stemWord('photography'));
    expect(stemWord('bakeries')).toBe(stemWord('bakery'));
    expect(stemWord('weddings')).toBe(stemWord('wedding'));
    expect(stemWord('designers')).toBe('design');
    expect(stemWord('classes')).toBe('class');
    expect(stemWord('fitness')).toBe('fitness');
    expect(stemWord('news')).toBe('news');
  });

  it('drops filler words and Latin accents, leaves other scripts alone', () => {
    expect(processTerm('Website')).toBeNull();
    expect(processTerm('para')).toBeNull();
    expect(processTerm('Café')).toBe('cafe');
    expect(processTerm('ресторан')).toBe('ресторан');
  });

  it('maps idea words of every UI language to catalogue words', () => {
    const cases: [string, string][] = [
      ['restaurante familiar', 'restaurant'],
      ['Ресторан у моря', 'restaurant'],
      ['我的餐厅', 'restaurant'],
      ['مطعم شعبي', 'restaurant'],
      ['रेस्टोरेंट की साइट', 'restaurant'],
      ['ร้านอาหารไทย', 'restaurant'],
      ['rumah makan padang', 'restaurant'],
      ['Mein Restaurant', 'restaurant'],
      ['un portafolio', 'portfolio'],
      ['boutique de mode', 'shop'],
      ['mi tienda', 'shop'],
      ['gimnasio', 'fitness'],
      ['Fitnessstudio', 'fitness'],
      ['ジムのサイト', 'fitness'],
      ['стартапа', 'startup'],
    ];
    for (const [idea, term] of cases) expect(expandIdea(idea), idea).toContain(term);
  });

  it('does not find short words inside longer ones', () => {
    // "รถ" (car) is inside "สามารถ" (can); "योग" (yoga) inside "उपयोग" (use).
    expect(expandIdea('สามารถจองออนไลน์')).not.toContain('cars');
    expect(expandIdea('उपयोग में आसान')).not.toContain('yoga');
  });
});
