import { describe, expect, it } from 'vitest';
import {
  colorKey,
  colorNameInWords,
  findColors,
  formatReplacement,
  isColorName,
  isSaturated,
  nameOfColor,
  parseColor,
} from './colors.js';

describe('colours', () => {
  it('parses every common spelling to the same colour', () => {
    for (const spelling of [
      '#f00',
      '#FF0000',
      '#ff0000ff',
      'red',
      'RED',
      'rgb(255, 0, 0)',
      'rgb(255 0 0)',
      'rgb(100% 0% 0%)',
      'rgba(255,0,0,1)',
      'hsl(0, 100%, 50%)',
      'hsl(0deg 100% 50%)',
      'hsl(360 100 50)',
    ]) {
      const c = parseColor(spelling);
      expect(c && colorKey(c), spelling).toBe('#ff0000');
      expect(c?.a, spelling).toBe(1);
    }
    expect(parseColor('rgb(0 102 255 / 50%)')).toEqual({ r: 0, g: 102, b: 255, a: 0.5 });
    expect(parseColor('#0066ff80')?.a).toBeCloseTo(0.502, 3);
    for (const bad of [
      '#12',
      'blurple',
      'var(--x)',
      'rgb(1,2)',
      'transparent',
      'oklch(0.5 0.1 20)',
    ]) {
      expect(parseColor(bad), bad).toBeUndefined();
    }
  });

  it('finds colours in values with their offsets, names only when asked', () => {
    const value = '0 1px 2px rgba(0,0,0,.5), inset 0 0 0 1px #fff';
    const found = findColors(value, true);
    expect(found.map((c) => value.slice(c.start, c.end))).toEqual(['rgba(0,0,0,.5)', '#fff']);
    const names = 'linear-gradient(red, blue 50%) url(#red)';
    expect(findColors(names, true).map((c) => names.slice(c.start, c.end))).toEqual([
      'red',
      'blue',
    ]);
    expect(findColors(names, false)).toEqual([]);
    expect(findColors('url("a#f00.png") #f00', false).map((c) => c.start)).toEqual([17]);
  });

  it('keeps the alpha of translucent colours it replaces', () => {
    const to = parseColor('#0a7');
    expect(to).toBeDefined();
    if (!to) return;
    expect(formatReplacement('#0a7', to, 1)).toBe('#0a7');
    expect(formatReplacement('#0a7', to, 0.5)).toBe('rgba(0, 170, 119, 0.5)');
    expect(formatReplacement('#00aa7780', parseColor('#00aa7780') ?? to, 0.5)).toBe('#00aa7780');
  });

  it('names colours the way the engine words them', () => {
    const name = (text: string) => nameOfColor(parseColor(text) ?? { r: 0, g: 0, b: 1, a: 1 });
    expect(name('#dc143c')).toBe('crimson');
    expect(name('#808080')).toBe('gray');
    expect(name('rgb(0 255 255 / 0.5)')).toBe('aqua');
    expect(name('#123457')).toBeUndefined();
    expect(parseColor('hsl(0.5turn 50% 50%)')).toEqual({ r: 64, g: 191, b: 191, a: 1 });
    expect(['Crimson', 'rebeccapurple', 'transparent', 'f00', 'red1'].map(isColorName)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('tells brand colours from greys', () => {
    expect(isSaturated(parseColor('#0066ff') ?? { r: 0, g: 0, b: 0, a: 0 })).toBe(true);
    expect(isSaturated(parseColor('#777777') ?? { r: 0, g: 0, b: 0, a: 0 })).toBe(false);
    expect(isSaturated(parseColor('#fffffe') ?? { r: 0, g: 0, b: 0, a: 0 })).toBe(false);
  });
});

describe('colour names in words', () => {
  it('writes compound CSS names as a person does, and keeps one-word names', () => {
    expect(colorNameInWords('darkgreen')).toBe('dark green');
    expect(colorNameInWords('lightgoldenrodyellow')).toBe('light goldenrod yellow');
    expect(colorNameInWords('darkslategray')).toBe('dark slate gray');
    expect(colorNameInWords('seagreen')).toBe('sea green');
    for (const name of ['red', 'navy', 'goldenrod', 'seashell', 'firebrick', 'Bakery']) {
      expect(colorNameInWords(name)).toBe(name);
    }
  });
});
