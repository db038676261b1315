/**
 * Files read off the main thread by node:fs's callbacks, not node:fs/promises: loading that module
 * loads readline and the REPL's history with it (about 5 ms of a start here), for two calls. Not
 * util.promisify either: the bundle's copy of node:util's exports reads its TextDecoder, which loads
 * more modules still.
 */
import { readFile, stat, type Stats } from 'node:fs';

export const readFileAsync = (path: string): Promise<Buffer> => new Promise((resolve, reject) => readFile(path, (e, bytes) => (e ? reject(e) : resolve(bytes))));

export const statAsync = (path: string): Promise<Stats> => new Promise((resolve, reject) => stat(path, (e, stats) => (e ? reject(e) : resolve(stats))));
