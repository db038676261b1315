/**
 * API keys in SQLite. A key is 256 random bits, shown once; only its HMAC-SHA-256 is stored.
 * A keyed fast hash is right for high-entropy secrets: there is nothing to brute-force, so a slow
 * password hash would only slow every request; the HMAC key (the "pepper") means a copied database
 * alone cannot even confirm a guessed key, when the pepper is kept outside it (env KEYS_PEPPER).
 * Without KEYS_PEPPER it is generated once and kept in the database's meta table: then a copy of
 * the file is enough to test guesses (README, Security). WAL journaling: readers never block the
 * writer, and a crash mid-write loses no committed key.
 *
 * The store recovers by itself: a read that fails (garbage, a lock, the file deleted or replaced
 * while running) answers KeyStoreUnavailable (503) and drops the connection; the next lookup opens
 * the file again, so a good file is served again without a restart.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
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
/** The only shape a key can have: the prefix and 32 random bytes in base64url. Anything else is refused unread. */
const KEY_FORMAT = /^lk_[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often per key, so lookups stay reads. */
const LAST_USED_EVERY_MS = 60_000;
/**
 * A key the store confirmed is trusted this long before the store is asked again, so a request
 * costs a map lookup, not an HMAC and a query: a revocation made by another process
 * (the keys command) takes effect within this time, one made through this store at once.
 */
const VERIFIED_FOR_MS = 1000;
const MAX_VERIFIED = 10_000;
/** How long a write waits for another process's write lock (readers never wait: WAL). */
const BUSY_TIMEOUT_MS = 2000;

export class KeyStore {
  private db: Database.Database | null = null;
  /** The file the connection reads (device and inode): a file replaced under the same name is reopened. */
  private fileId = '';
  private pepper!: KeyObject;
  /**
   * A recently confirmed key → its id and until when the confirmation holds: a request with a
   * confirmed key costs one map lookup, no hash. The key itself is the map's key: the process holds
   * it anyway while it reads the request, and for at most a second more here.
   */
  private readonly verified = new Map<string, { id: number; until: number }>();
  private readonly lastWritten = new Map<number, number>();
  private byHash!: Database.Statement<[Buffer], { id: number; hash: Buffer; revoked_at: string | null }>;
  private touch!: Database.Statement<[string, number]>;

  constructor(
    private readonly path: string,
    private readonly configuredPepper = process.env.KEYS_PEPPER,
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.open(true);
  }

  /** The open connection, reopened when the file changed or a read failed; throws KeyStoreUnavailable. */
  private connection(): Database.Database {
    if (this.path === ':memory:') return this.db!;
    let id: string;
    try {
      const st = statSync(this.path);
      id = `${st.dev}:${st.ino}`;
    } catch (e) {
      this.drop();
      throw new KeyStoreUnavailable(`${this.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (this.db && id === this.fileId) return this.db;
    this.drop();
    try {
      return this.open(false);
    } catch (e) {
      this.drop();
      throw new KeyStoreUnavailable((e as Error).message);
    }
  }

  /** Opens the file; at creation (`create`) the schema is made, afterwards the file must already be a key store. */
  private open(create: boolean): Database.Database {
    const db = new Database(this.path, { timeout: BUSY_TIMEOUT_MS, fileMustExist: !create && this.path !== ':memory:' });
    this.db = db;
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    if (create)
      db.exec(`
      CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
      CREATE TABLE IF NOT EXISTS api_keys (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        hash BLOB NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );`);
    this.pepper = createSecretKey(this.configuredPepper ? Buffer.from(this.configuredPepper, 'utf8') : this.storedPepper(db));
    this.byHash = db.prepare('SELECT id, hash, revoked_at FROM api_keys WHERE hash = ?');
    this.touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    if (this.path !== ':memory:') {
      const st = statSync(this.path);
      this.fileId = `${st.dev}:${st.ino}`;
    }
    return db;
  }

  private drop(): void {
    try {
      this.db?.close();
    } catch {
      // Closing a connection to a broken file can fail too; it is dropped either way.
    }
    this.db = null;
    this.verified.clear();
  }

  /** Whether the store answers a read now (for /healthz): `ok`, or why not. */
  health(): { ok: true } | { ok: false; reason: string } {
    try {
      this.connection().prepare('SELECT count(*) FROM api_keys').get();
      return { ok: true };
    } catch (e) {
      this.drop();
      return { ok: false, reason: (e as Error).message };
    }
  }

  private storedPepper(db: Database.Database): Buffer {
    db.prepare('INSERT OR IGNORE INTO meta (name, value) VALUES (?, ?)').run('pepper', randomBytes(32));
    return (db.prepare('SELECT value FROM meta WHERE name = ?').get('pepper') as { value: Buffer }).value;
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
    const db = this.connection();
    const r = db.prepare('INSERT INTO api_keys (label, hash, created_at) VALUES (?, ?, ?)').run(clean, this.hash(key), now);
    return { key, info: { id: Number(r.lastInsertRowid), label: clean, created_at: now, last_used_at: null, revoked_at: null } };
  }

  /** The key's id when it is valid and not revoked; null otherwise. Throws KeyStoreUnavailable. */
  verify(key: string): number | null {
    if (!KEY_FORMAT.test(key)) return null;
    const now = Date.now();
    const hit = this.verified.get(key);
    if (hit && hit.until > now) return hit.id;
    const db = this.connection();
    const h = this.hash(key);
    let row: { id: number; hash: Buffer; revoked_at: string | null } | undefined;
    try {
      row = this.byHash.get(h);
    } catch (e) {
      this.drop();
      throw new KeyStoreUnavailable((e as Error).message);
    }
    // The lookup is by an HMAC the caller cannot predict; the comparison is constant-time anyway.
    if (!row || row.revoked_at !== null || !timingSafeEqual(row.hash, h)) return null;
    if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
    this.verified.set(key, { id: row.id, until: now + VERIFIED_FOR_MS });
    if (now - (this.lastWritten.get(row.id) ?? 0) > LAST_USED_EVERY_MS) {
      this.lastWritten.set(row.id, now);
      // Last use is bookkeeping: a store locked by another writer must neither fail nor hold up
      // the request (the wait would block the event loop), so this write does not wait.
      db.pragma('busy_timeout = 0');
      try {
        this.touch.run(new Date(now).toISOString(), row.id);
      } catch {
        this.lastWritten.delete(row.id);
      } finally {
        db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    }
    return row.id;
  }

  list(): KeyInfo[] {
    return this.connection().prepare('SELECT id, label, created_at, last_used_at, revoked_at FROM api_keys ORDER BY id').all() as KeyInfo[];
  }

  /** The active keys a revocation would name: by id, by label, or by the key itself. */
  find(target: { id: number } | { label: string } | { key: string }): KeyInfo[] {
    const db = this.connection();
    const select = 'SELECT id, label, created_at, last_used_at, revoked_at FROM api_keys WHERE revoked_at IS NULL AND';
    if ('id' in target) return db.prepare(`${select} id = ?`).all(target.id) as KeyInfo[];
    if ('label' in target) return db.prepare(`${select} label = ? ORDER BY id`).all(target.label) as KeyInfo[];
    return KEY_FORMAT.test(target.key) ? (db.prepare(`${select} hash = ?`).all(this.hash(target.key)) as KeyInfo[]) : [];
  }

  /** Revokes exactly these ids (those still active); returns how many were revoked. */
  revoke(ids: readonly number[]): number {
    const db = this.connection();
    const now = new Date().toISOString();
    const stmt = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND id = ?');
    const n = db.transaction(() => ids.reduce((sum, id) => sum + stmt.run(now, id).changes, 0))();
    this.verified.clear();
    return n;
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
