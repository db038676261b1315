/**
 * API keys in SQLite. A key is 256 random bits, shown once; only its HMAC-SHA-256 is stored.
 * A keyed fast hash is right for high-entropy secrets: there is nothing to brute-force, so a slow
 * password hash would only slow every request; the HMAC key (the "pepper") means a copied database
 * alone cannot even confirm a guessed key. It comes from env KEYS_PEPPER, else it is generated once
 * and kept in the database's meta table. WAL journaling: readers never block the writer, and a
 * crash mid-write loses no committed key.
 */
import { createHmac, createSecretKey, hash as digestOf, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export interface KeyInfo {
  id: number;
  label: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The store could not be read or written (locked, missing, corrupt): the API answers 503. */
export class KeyStoreUnavailable extends Error {}

const KEY_PREFIX = 'lk_';
/** last_used_at is written at most this often per key, so lookups stay reads. */
const LAST_USED_EVERY_MS = 60_000;
/**
 * A key the store confirmed is trusted this long before the store is asked again, so a request
 * costs a SHA-256 and a map lookup, not an HMAC and a query: a revocation made by another process
 * (the keys command) takes effect within this time, one made through this store at once.
 */
const VERIFIED_FOR_MS = 1000;
const MAX_VERIFIED = 10_000;
/** How long a write waits for another process's write lock (readers never wait: WAL). */
const BUSY_TIMEOUT_MS = 2000;

export class KeyStore {
  private readonly db: Database.Database;
  private readonly pepper: KeyObject;
  /**
   * base64 SHA-256 of a recently confirmed key → its id and until when the confirmation holds.
   * Keys carry 256 random bits, so their plain digest is as safe to hold as the HMAC, and it is
   * several times cheaper to compute (crypto.hash, one call).
   */
  private readonly verified = new Map<string, { id: number; until: number }>();
  private readonly lastWritten = new Map<number, number>();
  private readonly byHash: Database.Statement<[Buffer], { id: number; hash: Buffer; revoked_at: string | null }>;
  private readonly touch: Database.Statement<[string, number]>;

  constructor(path: string, pepper = process.env.KEYS_PEPPER) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
      CREATE TABLE IF NOT EXISTS api_keys (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        hash BLOB NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );`);
    this.pepper = createSecretKey(pepper ? Buffer.from(pepper, 'utf8') : this.storedPepper());
    this.byHash = this.db.prepare('SELECT id, hash, revoked_at FROM api_keys WHERE hash = ?');
    this.touch = this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  }

  private storedPepper(): Buffer {
    const insert = this.db.prepare('INSERT OR IGNORE INTO meta (name, value) VALUES (?, ?)');
    insert.run('pepper', randomBytes(32));
    return (this.db.prepare('SELECT value FROM meta WHERE name = ?').get('pepper') as { value: Buffer }).value;
  }

  hash(key: string): Buffer {
    return createHmac('sha256', this.pepper).update(key, 'utf8').digest();
  }

  /** Creates a key; the returned plaintext is never stored and cannot be shown again. */
  create(label: string): { key: string; info: KeyInfo } {
    const clean = label.trim();
    if (!clean || clean.length > 200) throw new Error('label must be 1 to 200 characters');
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    const r = this.db.prepare('INSERT INTO api_keys (label, hash, created_at) VALUES (?, ?, ?)').run(clean, this.hash(key), now);
    return { key, info: { id: Number(r.lastInsertRowid), label: clean, created_at: now, last_used_at: null, revoked_at: null } };
  }

  /** The key's id when it is valid and not revoked; null otherwise. Throws KeyStoreUnavailable. */
  verify(key: string): number | null {
    if (!key.startsWith(KEY_PREFIX) || key.length > 100) return null;
    const tag = digestOf('sha256', key, 'base64');
    const now = Date.now();
    const hit = this.verified.get(tag);
    if (hit && hit.until > now) return hit.id;
    const h = this.hash(key);
    let row: { id: number; hash: Buffer; revoked_at: string | null } | undefined;
    try {
      row = this.byHash.get(h);
    } catch (e) {
      throw new KeyStoreUnavailable((e as Error).message);
    }
    // The lookup is by an HMAC the caller cannot predict; the comparison is constant-time anyway.
    if (!row || row.revoked_at !== null || !timingSafeEqual(row.hash, h)) return null;
    if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
    this.verified.set(tag, { id: row.id, until: now + VERIFIED_FOR_MS });
    if (now - (this.lastWritten.get(row.id) ?? 0) > LAST_USED_EVERY_MS) {
      this.lastWritten.set(row.id, now);
      // Last use is bookkeeping: a store locked by another writer must neither fail nor hold up
      // the request (the wait would block the event loop), so this write does not wait.
      this.db.pragma('busy_timeout = 0');
      try {
        this.touch.run(new Date(now).toISOString(), row.id);
      } catch {
        this.lastWritten.delete(row.id);
      } finally {
        this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    }
    return row.id;
  }

  list(): KeyInfo[] {
    return this.db.prepare('SELECT id, label, created_at, last_used_at, revoked_at FROM api_keys ORDER BY id').all() as KeyInfo[];
  }

  /** Revokes by id or label; returns how many keys were revoked. */
  revoke(idOrLabel: string): number {
    const now = new Date().toISOString();
    const byId = /^\d+$/.test(idOrLabel);
    this.verified.clear();
    return this.db
      .prepare(`UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND ${byId ? 'id' : 'label'} = ?`)
      .run(now, byId ? Number(idOrLabel) : idOrLabel).changes;
  }

  close(): void {
    this.db.close();
  }
}
