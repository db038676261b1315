/** The key management command and the store behind it (real SQLite files). */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SqliteKeyStore } from '../../server/auth/key-store.js';
import { projectRoot } from '../../server/data/paths.js';

const run = (db: string, ...args: string[]) =>
  promisify(execFile)('npm', ['run', '--silent', 'keys', '--', ...args], { cwd: projectRoot, env: { ...process.env, KEYS_DB: db } });

describe('npm run keys', () => {
  it('create prints the key alone on its last stdout line; list never shows it; revoke revokes', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'landed-keys-')), 'keys.sqlite');
    const created = await run(db, 'create', '--label', 'acme-erp');
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^lk_[A-Za-z0-9_-]{43}$/); // 256 random bits, base64url
    const listed = await run(db, 'list');
    expect(listed.stdout).toMatch(/acme-erp\tcreated .*\tlast used never\tactive/);
    expect(listed.stdout).not.toContain(key.slice(3));

    // The store survives a restart (a new process opens the file) and verifies the key.
    const store = new SqliteKeyStore(db);
    expect(store.verify(key)).toBe(1);
    expect(store.verify(`${key.slice(0, -1)}x`)).toBeNull();
    store.close();

    expect((await run(db, 'revoke', 'acme-erp')).stdout).toMatch(/revoked 1 key: 1/);
    const again = new SqliteKeyStore(db);
    expect(again.verify(key)).toBeNull();
    again.close();
    await expect(run(db, 'revoke', 'nobody')).rejects.toMatchObject({ code: 2 });
    await expect(run(db, 'create')).rejects.toMatchObject({ stderr: expect.stringMatching(/--label/) });
  });

  it('stores only a keyed hash of the key', () => {
    const db = join(mkdtempSync(join(tmpdir(), 'landed-keys-')), 'keys.sqlite');
    const a = new SqliteKeyStore(db, 'pepper-one');
    const { key } = a.create('x');
    const row = (a as unknown as { db: { prepare(s: string): { get(): { hash: Buffer } } } }).db.prepare('SELECT hash FROM api_keys').get();
    expect(row.hash.equals(a.hash(key))).toBe(true);
    expect(row.hash.toString('latin1')).not.toContain(key);
    a.close();
    // Another pepper (HMAC key) cannot verify the same stored hash.
    const b = new SqliteKeyStore(db, 'pepper-two');
    expect(b.verify(key)).toBeNull();
    b.close();
  });
});

/** The command with `input` on standard input; resolves with its exit code and output. */
function runWithInput(db: string, input: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'keys', '--', ...args], { cwd: projectRoot, env: { ...process.env, KEYS_DB: db } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('keys revoke revokes exactly the key named', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'landed-revoke-')), 'keys.sqlite');
  const store = new SqliteKeyStore(db);
  const a = store.create('acme'); // id 1
  const b = store.create('1'); // id 2, labelled like a's id
  const c = store.create('shared'); // id 3
  const d = store.create('shared'); // id 4
  const e = store.create('solo'); // id 5
  store.close();
  const valid = (...keys: string[]) => {
    const s = new SqliteKeyStore(db);
    const out = keys.map((k) => s.verify(k) !== null);
    s.close();
    return out;
  };

  it('a bare argument that could be an id or a label is refused, nothing revoked', async () => {
    const r = await runWithInput(db, '', 'revoke', '1');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"1" names different keys \(id 1: 1; label "1": 2\); say which with --id or --label/);
    expect(valid(a.key, b.key)).toEqual([true, true]);
  });

  it('--id and --label choose one reading', async () => {
    expect((await runWithInput(db, '', 'revoke', '--label', '1')).stdout).toMatch(/^revoked 1 key: 2$/m);
    expect(valid(a.key, b.key)).toEqual([true, false]);
    expect((await runWithInput(db, '', 'revoke', '--id', '1')).stdout).toMatch(/^revoked 1 key: 1$/m);
    expect(valid(a.key)).toEqual([false]);
  });

  it('several keys under one label: listed and revoked only after a yes', async () => {
    const no = await runWithInput(db, 'n\n', 'revoke', 'shared');
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/2 active keys are labelled "shared":\n {2}3\t.*\n {2}4\t/);
    expect(no.stderr).toMatch(/Revoke all 2\? \[y\/N\] keys: nothing revoked/);
    expect(valid(c.key, d.key)).toEqual([true, true]);
    // No answer at all (standard input closed) is a no too.
    expect((await runWithInput(db, '', 'revoke', 'shared')).code).toBe(2);
    const yes = await runWithInput(db, 'y\n', 'revoke', 'shared');
    expect(yes.stdout).toMatch(/^revoked 2 keys: 3, 4$/m);
    expect(valid(c.key, d.key, e.key)).toEqual([false, false, true]);
  });

  it('the key itself names exactly that key', async () => {
    expect((await runWithInput(db, '', 'revoke', e.key)).stdout).toMatch(/^revoked 1 key: 5$/m);
    expect(valid(e.key)).toEqual([false]);
    expect((await runWithInput(db, '', 'revoke', e.key)).code).toBe(2);
  });
});
