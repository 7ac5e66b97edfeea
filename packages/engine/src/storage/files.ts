import { readFile as readFileCb, writeFile as writeFileCb } from 'node:fs';
import { promisify } from 'node:util';

/**
 * Whole-file reads and writes for the thousands of small files a run stores: the callback API
 * wrapped once. `fs/promises` opens a FileHandle per call, which costs the main thread about
 * twice as much per file (measured on a run of 12,000 files).
 */
export const readFile = promisify(readFileCb);
export const writeFile = promisify(writeFileCb);
