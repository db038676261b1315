/**
 * Everything the service reads at start, from the environment with embedded defaults, and the
 * loading of its data. A missing or corrupt file stops the start with one line naming the file.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tariff } from '../shared/index.js';
import { SqliteKeyStore, type KeyStore } from './auth/key-store.js';
import { MemoryRateLimiter, type RateLimiter } from './auth/rate-limit.js';
import { countriesPath, readCountries } from './data/countries.js';
import { datedSchedulePath, datedSchedules } from './data/dated-schedule.js';
import { dataDir, projectRoot } from './data/paths.js';
import { scheduleIndexOf } from './data/search-index.js';
import { loadExporters, loadTariffData } from './data/tariff-index.js';
import type { AppDeps } from './app.js';

export function keysPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.KEYS_DB ?? join(dataDir, 'keys.sqlite'));
}

/**
 * The schedule, countries and chapter 99 tables of `env`'s data files: from the prebuilt index when
 * it was built from those files, else built from them (`rebuilt` is told why); the older revisions
 * from the dated schedule (HTS_DATED, else data/hts/dated-schedule.json.gz), built when first used.
 */
export function loadTariff(env: NodeJS.ProcessEnv = process.env, rebuilt: (reason: string) => void = () => {}): Tariff {
  const data = loadTariffData(env);
  if (data.rebuilt) rebuilt(data.rebuilt);
  return new Tariff(data.schedule, readCountries(countriesPath(env)), data.chapter99, undefined, scheduleIndexOf(data.schedule, env), datedSchedules(datedSchedulePath(env)));
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
  /** PostgreSQL key store shared by instances; the SQLite file (KEYS_DB) when absent. */
  databaseUrl?: string;
  /** Redis limiter shared by instances; the in-process limiter when absent. */
  redisUrl?: string;
  /** Longest wait, in ms, for one call to PostgreSQL or Redis before the request is a 503. */
  storeTimeoutMs: number;
  /** Proxies in front of the service that append the client's address to X-Forwarded-For. */
  trustedProxies: number;
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
    databaseUrl: serviceUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
    redisUrl: serviceUrl(env, 'REDIS_URL', ['redis:', 'rediss:'], 'redis://[:password@]host:6379[/db]'),
    storeTimeoutMs: wholeNumber(env, 'STORE_TIMEOUT_MS', 1000, 10, 60_000),
    trustedProxies: wholeNumber(env, 'TRUST_PROXY', 0, 0, 10),
  };
}

/** A URL of one of these schemes with a host, or an error that never repeats the value (it may hold a password). */
function serviceUrl(env: NodeJS.ProcessEnv, name: string, schemes: string[], form: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // Described below without the value.
  }
  if (!url || !schemes.includes(url.protocol) || !url.hostname) throw new Error(`${name} must be a URL of the form ${form}; got ${url ? `one with scheme "${url.protocol}"${url.hostname ? '' : ' and no host'}` : 'something that is not a URL'}`);
  return raw;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new Error(`${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(raw.slice(0, 40))}`);
  return n;
}

/** Everything the app needs, with `close` to release the stores' connections. */
export async function loadDeps(env: NodeJS.ProcessEnv = process.env, tariff = loadTariff(env)): Promise<AppDeps & { close(): Promise<void> }> {
  const settings = readSettings(env);
  const keys = await openKeyStore(env, settings);
  let keyLimiter: RateLimiter = new MemoryRateLimiter(settings.rateLimit);
  let addressLimiter: RateLimiter = new MemoryRateLimiter(settings.unauthRateLimit);
  let closeRedis = async () => {};
  if (settings.redisUrl) {
    // Loaded only when configured: the embedded default starts without the Redis client.
    const { connectRedis, RedisRateLimiter } = await import('./auth/redis-rate-limit.js');
    let redis;
    try {
      redis = await connectRedis(settings.redisUrl, settings.storeTimeoutMs);
    } catch (e) {
      await keys.close();
      throw e;
    }
    keyLimiter = new RedisRateLimiter(redis, settings.rateLimit);
    addressLimiter = new RedisRateLimiter(redis, settings.unauthRateLimit);
    closeRedis = async () => void (await redis.quit().catch(() => redis.disconnect()));
  }
  return {
    tariff,
    exporters: loadExporters(env),
    keys,
    keyLimiter,
    addressLimiter,
    staticRoot: join(projectRoot, 'dist'),
    trustedProxies: settings.trustedProxies,
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    https: env.TLS_CERT && env.TLS_KEY ? { cert: readFile(env.TLS_CERT), key: readFile(env.TLS_KEY) } : undefined,
    async close() {
      await closeRedis();
      await keys.close();
    },
  };
}

/**
 * The key store the settings name: PostgreSQL when DATABASE_URL is set, else the SQLite file, or
 * an error naming what could not be opened (SQLite alone says only "file is not a database").
 */
export async function openKeyStore(env: NodeJS.ProcessEnv = process.env, settings = readSettings(env)): Promise<KeyStore> {
  if (settings.databaseUrl) {
    // Loaded only when configured, like the Redis client.
    const { PgKeyStore } = await import('./auth/pg-key-store.js');
    return PgKeyStore.open(settings.databaseUrl, env.KEYS_PEPPER, settings.storeTimeoutMs);
  }
  const path = keysPath(env);
  try {
    return new SqliteKeyStore(path, env.KEYS_PEPPER);
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
