/**
 * API keys. A key is 256 random bits, shown once; only its HMAC-SHA-256 is stored.
 * A keyed fast hash is right for high-entropy secrets: there is nothing to brute-force, so a slow
 * password hash would only slow every request; the HMAC key (the "pepper") means a copied database
 * alone cannot even confirm a guessed key, when the pepper is kept outside it (env KEYS_PEPPER).
 * Without KEYS_PEPPER it is generated once and kept in the database's meta table: then a copy of
 * the database is enough to test guesses (README, Security).
 *
 * Two stores share this design (HashedKeyStore): SQLite in this process by default, PostgreSQL
 * (pg-key-store.ts) when several instances must see the same keys.
 *
 * SQLite through Node's own binding (node:sqlite, no native package to compile): WAL journaling,
 * so readers never block the writer, and a crash mid-write loses no committed key. Each statement
 * is prepared once per connection and kept with it. The store recovers by itself: a read that fails (garbage, a lock, the file deleted
 * or replaced while running) answers KeyStoreUnavailable (503) and drops the connection; the next
 * lookup opens the file again, so a good file is served again without a restart.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from './sqlite.js';
import { StoreUnavailable, type Health } from '../errors.js';
import { after, type MaybePromise } from '../maybe.js';

export interface KeyInfo {
  id: number;
  label: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Which keys a revocation names: by id, by label, or by the key itself. */
export type KeyTarget = { id: number } | { label: string } | { key: string };

/** What the server and the keys command need of a store; a store in this process answers at once. */
export interface KeyStore {
  /** The key's id when it is valid and not revoked; null otherwise. Throws (or rejects with) KeyStoreUnavailable. */
  verify(key: string): MaybePromise<number | null>;
  /**
   * Whether the key is in this process's register of active keys (their HMACs), without looking
   * the key up: false for a key created elsewhere less than REGISTER_EVERY_MS ago. The gate asks it
   * for keys from an address over its limit of failed attempts (README, Security).
   */
  issued(key: string): MaybePromise<boolean>;
  /** Creates a key; the returned plaintext is never stored and cannot be shown again. */
  create(label: string): MaybePromise<{ key: string; info: KeyInfo }>;
  list(): MaybePromise<KeyInfo[]>;
  /** The active keys a revocation would name. */
  find(target: KeyTarget): MaybePromise<KeyInfo[]>;
  /** Revokes exactly these ids (those still active); returns how many were revoked. */
  revoke(ids: readonly number[]): MaybePromise<number>;
  /** Whether the store answers a read now (for /healthz). */
  health(): MaybePromise<Health>;
  close(): MaybePromise<void>;
}

/** The store could not be read or written (locked, missing, corrupt, down, too slow): the API answers 503. */
export class KeyStoreUnavailable extends StoreUnavailable {
  constructor(message: string) {
    super('key store', message);
  }
}

const KEY_PREFIX = 'lk_';
/** The only shape a key can have: the prefix and 32 random bytes in base64url. Anything else is refused unread. */
const KEY_FORMAT = /^lk_[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often per key, so lookups stay reads. */
const LAST_USED_EVERY_MS = 60_000;
/**
 * A key the store confirmed is trusted this long before the store is asked again, so a request
 * costs a map lookup, not an HMAC and a query: a revocation made by another process (the keys
 * command, another instance) takes effect within this time, one made through this store at once.
 */
const VERIFIED_FOR_MS = 1000;
const MAX_VERIFIED = 10_000;
/**
 * The register of active keys is read in full on first use, then only keys with higher ids, at
 * most this often: a flood of made-up keys costs the store one indexed read per 5 s per process.
 */
const REGISTER_EVERY_MS = 5000;
/** How long a write waits for another process's write lock (readers never wait: WAL). */
const BUSY_TIMEOUT_MS = 2000;

/** A stored key as a lookup by its HMAC finds it. */
export interface KeyRow {
  id: number;
  hash: Uint8Array;
  revoked_at: unknown;
}

/** What is common to the stores: key format, HMAC with the pepper, the short trust of confirmed keys. */
export abstract class HashedKeyStore implements KeyStore {
  protected pepper!: KeyObject;
  /**
   * A recently confirmed key → its id and until when the confirmation holds: a request with a
   * confirmed key costs one map lookup, no hash. The key itself is the map's key: the process holds
   * it anyway while it reads the request, and for at most a second more here.
   */
  private readonly verified = new Map<string, { id: number; until: number }>();
  private readonly lastWritten = new Map<number, number>();
  /** Counts forgets, so a lookup that was under way during a revocation is not trusted afterwards. */
  private generation = 0;
  /** The HMACs (base64) of the active keys read so far, the highest id read, when last read, a read under way. */
  private readonly register = new Set<string>();
  private registerUpTo = 0;
  private registerReadAt = -Infinity;
  private registerReading: Promise<void> | null = null;

  // Each store computes a key's HMAC itself, once its connection is ready: the SQLite store reads
  // the pepper again when its file was replaced.
  /** The stored row of this key, if any, and the key's HMAC; throws (or rejects with) KeyStoreUnavailable. */
  protected abstract lookup(key: string): MaybePromise<[KeyRow | undefined, Buffer]>;
  /** The active keys with an id above `id`, their ids and HMACs; throws (or rejects with) KeyStoreUnavailable. */
  protected abstract activeAfter(id: number): MaybePromise<{ id: number; hash: Uint8Array }[]>;
  protected abstract insert(label: string, key: string, at: string): MaybePromise<number>;
  /** Bookkeeping only: a failure is ignored, and must not hold up the request. */
  protected abstract recordUse(id: number, at: string): MaybePromise<void>;
  protected abstract findActive(target: KeyTarget): MaybePromise<KeyInfo[]>;
  protected abstract revokeIds(ids: readonly number[], at: string): MaybePromise<number>;
  abstract list(): MaybePromise<KeyInfo[]>;
  abstract health(): MaybePromise<Health>;
  abstract close(): MaybePromise<void>;

  hash(key: string): Buffer {
    return createHmac('sha256', this.pepper).update(key, 'utf8').digest();
  }

  create(label: string): MaybePromise<{ key: string; info: KeyInfo }> {
    const clean = label.trim();
    if (!clean || clean.length > 200) throw new Error('label must be 1 to 200 characters');
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    return after(this.insert(clean, key, now), (id) => ({ key, info: { id, label: clean, created_at: now, last_used_at: null, revoked_at: null } }));
  }

  verify(key: string): MaybePromise<number | null> {
    const now = Date.now();
    // Only keys of the right format are ever confirmed: a confirmed one needs no second look at its format.
    const hit = this.verified.get(key);
    if (hit && hit.until > now) return hit.id;
    if (!KEY_FORMAT.test(key)) return null;
    const generation = this.generation;
    return after(this.lookup(key), ([row, h]) => {
      // The lookup is by an HMAC the caller cannot predict; the comparison is constant-time anyway.
      if (!row || row.revoked_at !== null || !timingSafeEqual(row.hash, h)) {
        // Revoked since the register was read: looked up once, then out of it.
        this.register.delete(h.toString('base64'));
        return null;
      }
      if (generation === this.generation) {
        if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
        this.verified.set(key, { id: row.id, until: now + VERIFIED_FOR_MS });
      }
      this.noteUse(row.id, now);
      return row.id;
    });
  }

  issued(key: string): MaybePromise<boolean> {
    if (!KEY_FORMAT.test(key)) return false;
    if (this.registerReading) return this.registerReading.then(() => this.registered(key));
    // An empty register may not have its pepper yet (an SQLite file not opened since it was replaced).
    if (this.register.size > 0 && this.registered(key)) return true;
    const now = Date.now();
    if (now - this.registerReadAt < REGISTER_EVERY_MS) return false;
    this.registerReadAt = now;
    const generation = this.generation;
    const read = after(this.activeAfter(this.registerUpTo), (rows) => {
      if (generation !== this.generation) return;
      for (const r of rows) {
        this.register.add(Buffer.from(r.hash).toString('base64'));
        this.registerUpTo = Math.max(this.registerUpTo, r.id);
      }
    });
    if (!(read instanceof Promise)) return this.registered(key);
    this.registerReading = read.finally(() => (this.registerReading = null));
    return this.registerReading.then(() => this.registered(key));
  }

  private registered(key: string): boolean {
    return this.register.has(this.hash(key).toString('base64'));
  }

  private noteUse(id: number, now: number): void {
    if (now - (this.lastWritten.get(id) ?? 0) <= LAST_USED_EVERY_MS) return;
    this.lastWritten.set(id, now);
    // Written after this request's answer (a timer runs once the turn's I/O and answers are done): the
    // SQLite write waits for the disk (about 4 ms here), the answer need not.
    setTimeout(this.writeUse, 0, id, now);
  }

  private readonly writeUse = (id: number, now: number): void => {
    const notWritten = () => this.lastWritten.delete(id);
    try {
      const done = this.recordUse(id, new Date(now).toISOString());
      if (done instanceof Promise) done.catch(notWritten);
    } catch {
      notWritten();
    }
  };

  find(target: KeyTarget): MaybePromise<KeyInfo[]> {
    return 'key' in target && !KEY_FORMAT.test(target.key) ? [] : this.findActive(target);
  }

  revoke(ids: readonly number[]): MaybePromise<number> {
    return after(this.revokeIds(ids, new Date().toISOString()), (n) => {
      this.forget();
      return n;
    });
  }

  /** Trusts no earlier confirmation. */
  protected forget(): void {
    this.verified.clear();
    this.register.clear();
    this.registerUpTo = 0;
    this.registerReadAt = -Infinity;
    this.generation++;
  }
}

/** The statements a connection runs, each prepared once when it opens. */
interface Statements {
  byHash: StatementSync;
  activeAfter: StatementSync;
  touch: StatementSync;
  insert: StatementSync;
  count: StatementSync;
  list: StatementSync;
  activeById: StatementSync;
  activeByLabel: StatementSync;
  activeByHash: StatementSync;
  revoke: StatementSync;
}

const KEY_COLUMNS = 'id, label, created_at, last_used_at, revoked_at';

/** The embedded store: one SQLite file, read synchronously (no promise per request). */
export class SqliteKeyStore extends HashedKeyStore {
  private db: DatabaseSync | null = null;
  /** The file the connection reads (device and inode): a file replaced under the same name is reopened. */
  private fileId = '';
  private sql!: Statements;

  constructor(
    private readonly path: string,
    private readonly configuredPepper = process.env.KEYS_PEPPER,
  ) {
    super();
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.open(true);
  }

  /** The open connection's statements, reopened when the file changed or a read failed; throws KeyStoreUnavailable. */
  private connection(): Statements {
    if (this.path === ':memory:') return this.sql;
    let id: string;
    try {
      const st = statSync(this.path);
      id = `${st.dev}:${st.ino}`;
    } catch (e) {
      this.drop();
      throw new KeyStoreUnavailable(`${this.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (this.db && id === this.fileId) return this.sql;
    this.drop();
    try {
      this.open(false);
      return this.sql;
    } catch (e) {
      this.drop();
      throw new KeyStoreUnavailable((e as Error).message);
    }
  }

  /**
   * Opens the file; at creation (`create`) the schema is made, afterwards the file must already be
   * a key store (connection() has seen it exist, and a file that is not a key store fails here).
   */
  private open(create: boolean): void {
    const db = new DatabaseSync(this.path);
    this.db = db;
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;`);
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
    this.pepper = createSecretKey(this.configuredPepper ? Buffer.from(this.configuredPepper, 'utf8') : storedPepper(db));
    const active = `SELECT ${KEY_COLUMNS} FROM api_keys WHERE revoked_at IS NULL AND`;
    this.sql = {
      byHash: db.prepare('SELECT id, hash, revoked_at FROM api_keys WHERE hash = ?'),
      activeAfter: db.prepare('SELECT id, hash FROM api_keys WHERE id > ? AND revoked_at IS NULL ORDER BY id'),
      touch: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
      insert: db.prepare('INSERT INTO api_keys (label, hash, created_at) VALUES (?, ?, ?)'),
      count: db.prepare('SELECT count(*) AS n FROM api_keys'),
      list: db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`),
      activeById: db.prepare(`${active} id = ?`),
      activeByLabel: db.prepare(`${active} label = ? ORDER BY id`),
      activeByHash: db.prepare(`${active} hash = ?`),
      revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND id = ?'),
    };
    if (this.path !== ':memory:') {
      const st = statSync(this.path);
      this.fileId = `${st.dev}:${st.ino}`;
    }
  }

  private drop(): void {
    try {
      this.db?.close();
    } catch {
      // Closing a connection to a broken file can fail too; it is dropped either way.
    }
    this.db = null;
    this.forget();
  }

  health(): Health {
    try {
      this.connection().count.get();
      return { ok: true };
    } catch (e) {
      this.drop();
      return { ok: false, reason: (e as Error).message };
    }
  }

  protected insert(label: string, key: string, at: string): number {
    return Number(this.connection().insert.run(label, this.hash(key), at).lastInsertRowid);
  }

  protected lookup(key: string): [KeyRow | undefined, Buffer] {
    const sql = this.connection();
    const h = this.hash(key);
    try {
      return [sql.byHash.get(h) as KeyRow | undefined, h];
    } catch (e) {
      this.drop();
      throw new KeyStoreUnavailable((e as Error).message);
    }
  }

  protected activeAfter(id: number): { id: number; hash: Uint8Array }[] {
    const sql = this.connection();
    try {
      return sql.activeAfter.all(id) as unknown as { id: number; hash: Uint8Array }[];
    } catch (e) {
      this.drop();
      throw new KeyStoreUnavailable((e as Error).message);
    }
  }

  protected recordUse(id: number, at: string): void {
    // A store locked by another writer must neither fail nor hold up the request (the wait would
    // block the event loop), so this write does not wait. A store closed or dropped meanwhile is not
    // opened again for it (the next use tries again).
    const db = this.db;
    if (!db) throw new KeyStoreUnavailable('the connection is closed');
    db.exec('PRAGMA busy_timeout = 0');
    try {
      this.sql.touch.run(at, id);
    } finally {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  // This store answers synchronously: its callers (tests, fixtures) get plain values.
  override verify(key: string): number | null {
    return super.verify(key) as number | null;
  }

  override create(label: string): { key: string; info: KeyInfo } {
    return super.create(label) as { key: string; info: KeyInfo };
  }

  override find(target: KeyTarget): KeyInfo[] {
    return super.find(target) as KeyInfo[];
  }

  override revoke(ids: readonly number[]): number {
    return super.revoke(ids) as number;
  }

  list(): KeyInfo[] {
    return keyInfos(this.connection().list.all());
  }

  protected findActive(target: KeyTarget): KeyInfo[] {
    const sql = this.connection();
    if ('id' in target) return keyInfos(sql.activeById.all(target.id));
    if ('label' in target) return keyInfos(sql.activeByLabel.all(target.label));
    return keyInfos(sql.activeByHash.all(this.hash(target.key)));
  }

  protected revokeIds(ids: readonly number[], at: string): number {
    const sql = this.connection();
    const db = this.db!;
    db.exec('BEGIN IMMEDIATE');
    try {
      const n = ids.reduce((sum, id) => sum + Number(sql.revoke.run(at, id).changes), 0);
      db.exec('COMMIT');
      return n;
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}

/** The pepper kept in the file, made on first use. */
function storedPepper(db: DatabaseSync): Buffer {
  db.prepare('INSERT OR IGNORE INTO meta (name, value) VALUES (?, ?)').run('pepper', randomBytes(32));
  const row = db.prepare('SELECT value FROM meta WHERE name = ?').get('pepper') as { value: Uint8Array };
  return Buffer.from(row.value);
}

/** Rows as plain objects (node:sqlite gives them no prototype). */
function keyInfos(rows: unknown[]): KeyInfo[] {
  return rows.map((r) => ({ ...(r as KeyInfo) }));
}
