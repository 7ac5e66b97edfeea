import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, unsupportedNode } from './node-version.js';

describe('the Node.js version check of the entry points', () => {
  it('accepts the minimum, later minors and later majors', () => {
    expect(unsupportedNode(MINIMUM_NODE)).toBeNull();
    expect(unsupportedNode('v22.20.0')).toBeNull();
    expect(unsupportedNode('24.22.3')).toBeNull();
    expect(unsupportedNode('26.0.0')).toBeNull();
  });

  it('refuses Node 20 and older 22s in words that say what to run instead', () => {
    expect(unsupportedNode('v20.20.2')).toBe(
      'Mirror needs Node.js 22.19.0 or newer; this is v20.20.2. The npm scripts (npm start, npm test, ' +
        'npm run mirror) use the Node 24 that npm install puts in node_modules/.bin: run ' +
        'node_modules/.bin/node instead of node, or install Node 24.',
    );
    expect(unsupportedNode('22.18.9')).toMatch(/^Mirror needs Node\.js 22\.19\.0 or newer/);
  });

  it('is satisfied by the Node running the tests', () => {
    expect(unsupportedNode()).toBeNull();
  });
});
