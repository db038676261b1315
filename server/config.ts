/**
 * Everything the service reads at start, from the environment with embedded defaults, and the
 * loading of its data. A missing or corrupt file stops the start with one line naming the file.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tariff } from '../shared/index.js';
import { KeyStore } from './auth/key-store.js';
import { MemoryRateLimiter } from './auth/rate-limit.js';
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
  return Tariff.fromRows(file.rows, file.revision, readCountries(countriesPath(env)));
}

/** How the process listens and logs: read from the environment, each setting checked. */
export interface Settings {
  port: number;
  host: string;
  logLevel: string;
  /** Requests per key in any 60 seconds. */
  rateLimit: number;
  /** Requests per client address in any 60 seconds without a valid key. */
  unauthRateLimit: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The settings, or an Error whose message names the variable and what is wrong with it. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(logLevel.slice(0, 40))}`);
  return {
    port: wholeNumber(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    logLevel,
    rateLimit: wholeNumber(env, 'RATE_LIMIT', 120, 1, 1_000_000_000),
    unauthRateLimit: wholeNumber(env, 'UNAUTH_RATE_LIMIT', 30, 1, 1_000_000_000),
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new Error(`${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(raw.slice(0, 40))}`);
  return n;
}

export function loadDeps(env: NodeJS.ProcessEnv = process.env, tariff = loadTariff(env)): AppDeps {
  const settings = readSettings(env);
  return {
    tariff,
    exporters: ExportersTable.load(tradePath(env)),
    keys: openKeyStore(keysPath(env), env.KEYS_PEPPER),
    keyLimiter: new MemoryRateLimiter(settings.rateLimit),
    addressLimiter: new MemoryRateLimiter(settings.unauthRateLimit),
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
