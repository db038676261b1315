/** The key management command and the stores behind it: real SQLite files and a real PostgreSQL. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteKeyStore } from '../../server/auth/key-store.js';
import pg from 'pg';
import { openKeyStore } from '../../server/config.js';
import { keysCommand as keys } from '../helpers/keys-command.js';
import { startPostgres, type Postgres } from '../helpers/services.js';

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres.stop());

/** The same commands against each store, each time a new empty one. */
const stores: [string, () => Promise<NodeJS.ProcessEnv>][] = [
  ['SQLite', async () => ({ KEYS_DB: join(mkdtempSync(join(tmpdir(), 'landed-keys-')), 'keys.sqlite') })],
  ['PostgreSQL', async () => ({ DATABASE_URL: await postgres.freshDatabase() })],
];

/** Whether each key verifies, through a store opened anew (as another process would). */
async function valid(env: NodeJS.ProcessEnv, ...list: string[]): Promise<boolean[]> {
  const store = await openKeyStore({ ...process.env, ...env });
  const out = [];
  for (const k of list) out.push((await store.verify(k)) !== null);
  await store.close();
  return out;
}

describe.each(stores)('npm run keys on %s', (_name, newStore) => {
  it('create prints the key alone on its last stdout line; list never shows it; revoke revokes', async () => {
    const env = await newStore();
    const created = await keys(env, ['create', '--label', 'acme-erp']);
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^lk_[A-Za-z0-9_-]{43}$/); // 256 random bits, base64url
    const listed = await keys(env, ['list']);
    expect(listed.stdout).toMatch(/^1\tacme-erp\tcreated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tlast used never\tactive\n$/);
    expect(listed.stdout).not.toContain(key.slice(3));

    // The store survives a restart (a new process opens it) and verifies the key.
    const store = await openKeyStore({ ...process.env, ...env });
    expect(await store.verify(key)).toBe(1);
    expect(await store.verify(`${key.slice(0, -1)}x`)).toBeNull();
    await store.close();

    expect((await keys(env, ['revoke', 'acme-erp'])).stdout).toMatch(/revoked 1 key: 1/);
    expect(await valid(env, key)).toEqual([false]);
    expect((await keys(env, ['list'])).stdout).toMatch(/^1\tacme-erp\tcreated .*\tlast used .*\trevoked \d{4}-.*Z\n$/);
    expect((await keys(env, ['revoke', 'nobody'])).code).toBe(2);
    expect(await keys(env, ['create'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--label/) });
  });

  describe('keys revoke revokes exactly the key named', () => {
    let env: NodeJS.ProcessEnv;
    const made: string[] = [];
    beforeAll(async () => {
      env = await newStore();
      const store = await openKeyStore({ ...process.env, ...env });
      // ids 1 to 5: "acme", "1" (labelled like the first one's id), "shared" twice, "solo".
      for (const label of ['acme', '1', 'shared', 'shared', 'solo']) made.push((await store.create(label)).key);
      await store.close();
    });

    it('a bare argument that could be an id or a label is refused, nothing revoked', async () => {
      const r = await keys(env, ['revoke', '1']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/"1" names different keys \(id 1: 1; label "1": 2\); say which with --id or --label/);
      expect(await valid(env, made[0], made[1])).toEqual([true, true]);
    });

    it('--id and --label choose one reading', async () => {
      expect((await keys(env, ['revoke', '--label', '1'])).stdout).toMatch(/^revoked 1 key: 2$/m);
      expect(await valid(env, made[0], made[1])).toEqual([true, false]);
      expect((await keys(env, ['revoke', '--id', '1'])).stdout).toMatch(/^revoked 1 key: 1$/m);
      expect(await valid(env, made[0])).toEqual([false]);
    });

    it('several keys under one label: listed and revoked only after a yes', async () => {
      const no = await keys(env, ['revoke', 'shared'], 'n\n');
      expect(no.code).toBe(2);
      expect(no.stderr).toMatch(/2 active keys are labelled "shared":\n {2}3\t.*\n {2}4\t/);
      expect(no.stderr).toMatch(/Revoke all 2\? \[y\/N\] keys: nothing revoked/);
      expect(await valid(env, made[2], made[3])).toEqual([true, true]);
      // No answer at all (standard input closed) is a no too.
      expect((await keys(env, ['revoke', 'shared'])).code).toBe(2);
      const yes = await keys(env, ['revoke', 'shared'], 'y\n');
      expect(yes.stdout).toMatch(/^revoked 2 keys: 3, 4$/m);
      expect(await valid(env, made[2], made[3], made[4])).toEqual([false, false, true]);
    });

    it('the key itself names exactly that key', async () => {
      expect((await keys(env, ['revoke', made[4]])).stdout).toMatch(/^revoked 1 key: 5$/m);
      expect(await valid(env, made[4])).toEqual([false]);
      expect((await keys(env, ['revoke', made[4]])).code).toBe(2);
    });
  });
});

describe('the stored hash', () => {
  it('is a keyed hash of the key (SQLite)', () => {
    const db = join(mkdtempSync(join(tmpdir(), 'landed-keys-')), 'keys.sqlite');
    const a = new SqliteKeyStore(db, 'pepper-one');
    const { key } = a.create('x');
    const raw = new DatabaseSync(db, { readOnly: true });
    const hash = Buffer.from((raw.prepare('SELECT hash FROM api_keys').get() as { hash: Uint8Array }).hash);
    raw.close();
    expect(hash.equals(a.hash(key))).toBe(true);
    expect(hash.toString('latin1')).not.toContain(key);
    a.close();
    // Another pepper (HMAC key) cannot verify the same stored hash.
    const b = new SqliteKeyStore(db, 'pepper-two');
    expect(b.verify(key)).toBeNull();
    b.close();
  });
});

describe('the PostgreSQL store', () => {
  it('migrates once, recorded in schema_migrations, even when instances start together', async () => {
    const env = { ...process.env, DATABASE_URL: await postgres.freshDatabase() };
    const stores = await Promise.all([1, 2, 3].map(() => openKeyStore(env)));
    const { key } = await stores[0].create('shared');
    // One pepper, generated by whichever came first and kept in the meta table: every instance verifies every key.
    expect(await Promise.all(stores.map((s) => s.verify(key)))).toEqual([1, 1, 1]);
    await Promise.all(stores.map((s) => s.close()));
    const again = await openKeyStore(env);
    expect(await again.verify(key)).toBe(1);
    await again.close();
    const db = new pg.Client(env.DATABASE_URL);
    await db.connect();
    try {
      expect((await db.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual([{ version: 1 }]);
      expect((await db.query("SELECT length(value) AS n FROM meta WHERE name = 'pepper'")).rows).toEqual([{ n: 32 }]);
      const { rows } = await db.query('SELECT hash FROM api_keys');
      expect(rows[0].hash.toString('latin1')).not.toContain(key);
    } finally {
      await db.end();
    }
  });

  it('KEYS_PEPPER kept outside the database: another pepper cannot verify the stored hash', async () => {
    const url = await postgres.freshDatabase();
    const a = await openKeyStore({ ...process.env, DATABASE_URL: url, KEYS_PEPPER: 'pepper-one' });
    const { key } = await a.create('x');
    await a.close();
    const b = await openKeyStore({ ...process.env, DATABASE_URL: url, KEYS_PEPPER: 'pepper-two' });
    expect(await b.verify(key)).toBeNull();
    await b.close();
  });

  it('a database newer than this release is refused, naming both versions', async () => {
    const url = await postgres.freshDatabase();
    await (await openKeyStore({ ...process.env, DATABASE_URL: url })).close();
    const db = new pg.Client(url);
    await db.connect();
    await db.query('INSERT INTO schema_migrations (version) VALUES (2)');
    await db.end();
    await expect(openKeyStore({ ...process.env, DATABASE_URL: url })).rejects.toThrow(/^DATABASE_URL: cannot open the key store \(the database's schema is at version 2, newer than this release knows \(1\)\)$/);
  });
});
