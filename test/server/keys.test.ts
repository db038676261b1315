/** The key management command and the store behind it (real SQLite files). */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KeyStore } from '../../server/auth/key-store.js';
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
    const store = new KeyStore(db);
    expect(store.verify(key)).toBe(1);
    expect(store.verify(`${key.slice(0, -1)}x`)).toBeNull();
    store.close();

    expect((await run(db, 'revoke', 'acme-erp')).stdout).toMatch(/revoked 1 key/);
    const again = new KeyStore(db);
    expect(again.verify(key)).toBeNull();
    again.close();
    await expect(run(db, 'revoke', 'nobody')).rejects.toMatchObject({ code: 2 });
    await expect(run(db, 'create')).rejects.toMatchObject({ stderr: expect.stringMatching(/--label/) });
  });

  it('stores only a keyed hash of the key', () => {
    const db = join(mkdtempSync(join(tmpdir(), 'landed-keys-')), 'keys.sqlite');
    const a = new KeyStore(db, 'pepper-one');
    const { key } = a.create('x');
    const row = (a as unknown as { db: { prepare(s: string): { get(): { hash: Buffer } } } }).db.prepare('SELECT hash FROM api_keys').get();
    expect(row.hash.equals(a.hash(key))).toBe(true);
    expect(row.hash.toString('latin1')).not.toContain(key);
    a.close();
    // Another pepper (HMAC key) cannot verify the same stored hash.
    const b = new KeyStore(db, 'pepper-two');
    expect(b.verify(key)).toBeNull();
    b.close();
  });
});
