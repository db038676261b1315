/**
 * Everything the service reads at start, from the environment with embedded defaults, and the
 * loading of its data. A missing or corrupt file stops the start with one line naming the file.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tariff } from '../shared/index.js';
import { KeyStore } from './auth/key-store.js';
import { MemoryRateLimiter } from './auth/rate-limit.js';
import { ch99Path, readChapter99 } from './data/ch99.js';
import { countriesPath, readCountries, tradePath } from './data/countries.js';
import { ExportersTable } from './data/exporters.js';
import { htsPath, readHtsFile } from './data/hts-file.js';
import { dataDir, projectRoot } from './data/paths.js';
import type { AppDeps } from './app.js';

export function keysPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.KEYS_DB ?? join(dataDir, 'keys.sqlite'));
}

export function loadTariff(env: NodeJS.ProcessEnv = process.env): Tariff {
  const file = readHtsFile(htsPath(env));
  return Tariff.fromRows(file.rows, file.revision, readCountries(countriesPath(env)), readChapter99(ch99Path(env)));
}

export function loadDeps(env: NodeJS.ProcessEnv = process.env, tariff = loadTariff(env)): AppDeps {
  const perKey = Number(env.RATE_LIMIT ?? 120);
  return {
    tariff,
    exporters: ExportersTable.load(tradePath(env)),
    keys: openKeyStore(keysPath(env), env.KEYS_PEPPER),
    keyLimiter: new MemoryRateLimiter(Number.isInteger(perKey) && perKey > 0 ? perKey : 120),
    addressLimiter: new MemoryRateLimiter(Number(env.UNAUTH_RATE_LIMIT ?? 30) || 30),
    staticRoot: join(projectRoot, 'dist'),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    https: env.TLS_CERT && env.TLS_KEY ? { cert: readFile(env.TLS_CERT), key: readFile(env.TLS_KEY) } : undefined,
  };
}

/** The key store, or an error naming its file (SQLite alone says only "file is not a database"). */
function openKeyStore(path: string, pepper: string | undefined): KeyStore {
  try {
    return new KeyStore(path, pepper);
  } catch (e) {
    throw new Error(`${path}: cannot open the key store (${(e as Error).message})`);
  }
}

function readFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new Error(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
