/**
 * Files read off the main thread by node:fs's callbacks, not node:fs/promises: loading that module
 * loads readline and the REPL's history with it (about 5 ms of a start here), for two calls.
 */
import { readFile, stat } from 'node:fs';
import { promisify } from 'node:util';

export const readFileAsync = promisify(readFile);
export const statAsync = promisify(stat);
