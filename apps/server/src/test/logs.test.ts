import { describe, expect, it } from 'vitest';
import { expectErrorLog, takeLogProblems, testLogger } from './logs.js';

// The guard itself: each test reads the problems before setup.ts would, so it can assert them.
describe('the error log guard', () => {
  it('reports an error-level record nobody declared, with the warnings before it', () => {
    const log = testLogger();
    log.info('ignored');
    log.warn('disk almost full');
    log.error({ err: new Error('disk full') }, 'writing failed');
    const problems = takeLogProblems();
    expect(problems[0]).toMatch(/did not declare/);
    expect(problems.join('\n')).toContain('writing failed');
    expect(problems.join('\n')).toContain('disk almost full');
    expect(problems.join('\n')).not.toContain('ignored');
  });

  it('allows declared errors, matched by message or err.message, and forgets them after', () => {
    const log = testLogger();
    expectErrorLog(/disk full/);
    log.error({ err: new Error('disk full') }, 'writing failed');
    log.fatal({ err: new Error('disk full') }, 'writing failed again');
    console.error('disk full, said the console');
    expect(takeLogProblems()).toEqual([]);
    log.error({ err: new Error('disk full') }, 'writing failed');
    expect(takeLogProblems()).toHaveLength(2);
  });

  it('reports a declared error that never came', () => {
    expectErrorLog(/never logged/);
    testLogger().warn('never logged, only a warning');
    expect(takeLogProblems()).toEqual([
      'expectErrorLog(/never logged/) was declared, but no such error came',
    ]);
  });

  it('reports an undeclared console.error', () => {
    console.error('something broke: %s', 'badly');
    expect(takeLogProblems().join('\n')).toContain('console.error: something broke: badly');
  });
});
