/**
 * The key store recovers by itself: while its file is garbage, deleted or replaced, the
 * service answers 503 JSON and /healthz says so; once the file is good again, keys are served
 * again without a restart. The real SQLite file of a real server. (Another process's write lock
 * does not stop reads in WAL mode: faults.test.ts shows keys still verify under it.)
 */
import { copyFileSync, readFile, renameSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteKeyStore } from '../../server/auth/key-store.js';
import { startServer, type RunningServer } from '../helpers/server.js';

let srv: RunningServer;
let db: string;
beforeAll(async () => {
  srv = await startServer();
  db = (srv.keys as unknown as { path: string }).path;
});
afterAll(() => srv.close());

/** A key never used yet, so the store is asked (a confirmed key is trusted for a second). */
const freshKey = () => srv.keys.create(`fresh-${Math.random()}`).key;
const duty = (key: string) => fetch(`${srv.url}/api/v1/duty?hts=6109.10.00&value=100`, { headers: { authorization: `Bearer ${key}` } });
const health = async () => {
  const r = await fetch(`${srv.url}/healthz`);
  return [r.status, (await r.json()).key_store];
};

/** A consistent copy of the store (its WAL folded in) to put back later. */
function saved(): string {
  const copy = `${db}.good`;
  const c = new DatabaseSync(db, { timeout: 5000 });
  c.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  c.close();
  copyFileSync(db, copy);
  return copy;
}

async function expectUnavailable(key: string) {
  const r = await duty(key);
  expect(r.status).toBe(503);
  expect(r.headers.get('retry-after')).toBe('5');
  expect(await r.json()).toEqual({ error: { code: 'service_unavailable', message: 'The key store is unavailable; retry shortly' } });
  expect(await health()).toEqual([503, 'unavailable']);
}

describe('the key store file goes bad while serving, then good again', () => {
  it('replaced by garbage: 503 while it lasts; the good file back: served, no restart', async () => {
    const [a, b] = [freshKey(), freshKey()];
    const good = saved();
    writeFileSync(`${db}.bad`, 'not a database '.repeat(500));
    renameSync(`${db}.bad`, db);
    await expectUnavailable(a);
    renameSync(good, db);
    expect((await duty(a)).status).toBe(200);
    expect((await duty(b)).status).toBe(200);
    expect(await health()).toEqual([200, 'ok']);
  });

  it('deleted: 503; restored: served', async () => {
    const key = freshKey();
    const good = saved();
    rmSync(db);
    rmSync(`${db}-wal`, { force: true });
    rmSync(`${db}-shm`, { force: true });
    await expectUnavailable(key);
    renameSync(good, db);
    expect((await duty(key)).status).toBe(200);
  });

  it('replaced by another valid store: its keys are the ones honoured (the file is reopened)', async () => {
    const old = freshKey();
    expect((await duty(old)).status).toBe(200);
    const good = saved();
    const other = new SqliteKeyStore(`${db}.other`);
    const otherKey = other.create('other').key;
    other.close();
    renameSync(`${db}.other`, db);
    await new Promise((r) => setTimeout(r, 1100)); // the confirmation of `old` runs out
    expect((await duty(otherKey)).status).toBe(200);
    expect((await duty(old)).status).toBe(401);
    rmSync(good);
  });
});

describe('when a key was last used', () => {
  it('is written after the answer, not before it, and a store closed meanwhile is not reopened for it', async () => {
    const store = new SqliteKeyStore(`${db}.last-used`);
    const { key, info } = store.create('last-used');
    const lastUsed = () => store.list().find((k) => k.id === info.id)!.last_used_at;
    // As in the server: the key checked in an I/O callback; by the end of that turn (a setImmediate),
    // when its answers are written, the write has not happened.
    const atHandOver = await new Promise<string | null>((resolve) =>
      readFile(db, () => {
        expect(store.verify(key)).toBe(info.id);
        setImmediate(() => resolve(lastUsed()));
      }),
    );
    expect(atHandOver).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(Date.parse(lastUsed()!)).toBeGreaterThan(Date.now() - 5000);

    const other = store.create('closed-before-the-write');
    store.verify(other.key);
    store.close();
    await new Promise((r) => setTimeout(r, 20));
    const reopened = new SqliteKeyStore(`${db}.last-used`);
    expect(reopened.list().find((k) => k.id === other.info.id)!.last_used_at).toBeNull();
    reopened.close();
    rmSync(`${db}.last-used`);
  });
});
