import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/**
 * Where the server's logs go in tests. Test apps log at `warn` into this collector instead of
 * stdout; after each test, `setup.ts` fails the test when an error-level record (pino level 50 and
 * up) or a `console.error` call was written that the test did not declare with `expectErrorLog`,
 * and when a declared one never came. Errors are either what a test is about, or a defect.
 */

/** The level a test app logs at: warnings are kept to explain a failure, errors are checked. */
export const TEST_LOG_LEVEL = 'warn';

/** pino's number for `error` (`fatal` is 60). */
const ERROR_LEVEL = 50;

interface Expectation {
  pattern: RegExp;
  seen: boolean;
}

let expectations: Expectation[] = [];
let unexpected: string[] = [];
let warnings: string[] = [];

/**
 * Declares that the running test causes an error-level log or a `console.error` on purpose (a
 * fault it is about): every record whose message or `err.message` matches `pattern` is allowed,
 * and the test fails if none came.
 */
export function expectErrorLog(pattern: RegExp): void {
  expectations.push({ pattern, seen: false });
}

/** Checks one error, as `msg` and `err.message` of a record or the text of a console.error. */
export function noteError(texts: string[], whole: string): void {
  const matching = expectations.filter(({ pattern }) => texts.some((text) => pattern.test(text)));
  for (const expectation of matching) expectation.seen = true;
  if (matching.length === 0) unexpected.push(whole);
}

function noteLine(line: string): void {
  let record: { level?: unknown; msg?: unknown; err?: { message?: unknown } };
  try {
    record = JSON.parse(line) as typeof record;
  } catch {
    return;
  }
  if (typeof record.level !== 'number') return;
  if (record.level < ERROR_LEVEL) {
    warnings.push(line);
    return;
  }
  const texts = [record.msg, record.err?.message].filter((t): t is string => typeof t === 'string');
  noteError(texts, line);
}

/**
 * A pino destination into the collector; with `also`, each line goes there too (a test that reads
 * its own logs).
 */
export function testLogStream(also?: NodeJS.WritableStream): NodeJS.WritableStream {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      for (const line of text.split('\n')) if (line) noteLine(line);
      if (also) also.write(chunk);
      done();
    },
  });
}

/** A logger into the collector, for code under test that takes a logger without an app. */
export function testLogger(): Logger {
  return pino({ level: TEST_LOG_LEVEL }, testLogStream());
}

/**
 * What went wrong in the test that just ended (undeclared errors, declared ones that never came);
 * forgets its records and declarations.
 */
export function takeLogProblems(): string[] {
  const problems: string[] = [];
  if (unexpected.length > 0) {
    problems.push(`an error was logged that the test did not declare with expectErrorLog:`);
    problems.push(...unexpected);
    if (warnings.length > 0) problems.push('warnings before it:', ...warnings);
  }
  for (const { pattern, seen } of expectations) {
    if (!seen)
      problems.push(`expectErrorLog(${String(pattern)}) was declared, but no such error came`);
  }
  expectations = [];
  unexpected = [];
  warnings = [];
  return problems;
}
