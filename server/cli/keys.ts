/**
 * `npm run --silent keys -- create --label NAME` prints the new key alone on its last line;
 * `list` shows labels, creation and last use (never a key); `revoke` revokes exactly the key named:
 * `--id N`, `--label NAME`, or the key itself; a bare argument is read as whichever of these it can
 * be, and refused when it could name different keys. Several keys under one label are listed and
 * revoked only after a "y" on standard input (or with --yes). The store is the service's:
 * PostgreSQL when DATABASE_URL is set, else the SQLite file (KEYS_DB).
 */
import { createInterface } from 'node:readline';
import type { KeyInfo, KeyStore } from '../auth/key-store.js';
import { openKeyStore } from '../config.js';

const [command, ...rest] = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : rest.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};
const usage = 'usage: keys create --label NAME | keys list | keys revoke (--id N | --label NAME | KEY | ID | LABEL) [--yes]';

let store: KeyStore;
try {
  store = await openKeyStore();
} catch (e) {
  console.error(`keys: ${(e as Error).message}`);
  process.exit(2);
}
try {
  if (command === 'create') {
    const label = flag('label');
    if (!label) throw new Error('create needs --label NAME');
    const { key, info } = await store.create(label);
    console.error(`Created key ${info.id} "${info.label}". It is shown once: store it now; a lost key is revoked and replaced.`);
    console.log(key);
  } else if (command === 'list') {
    const keys = await store.list();
    if (!keys.length) console.log('no keys');
    for (const k of keys)
      console.log([k.id, k.label, `created ${k.created_at}`, `last used ${k.last_used_at ?? 'never'}`, k.revoked_at ? `revoked ${k.revoked_at}` : 'active'].join('\t'));
  } else if (command === 'revoke') {
    const keys = await revocationTargets();
    if (keys.length > 1 && !rest.includes('--yes')) {
      console.error(`${keys.length} active keys are labelled ${JSON.stringify(keys[0].label)}:`);
      for (const k of keys) console.error(`  ${k.id}\tcreated ${k.created_at}\tlast used ${k.last_used_at ?? 'never'}`);
      if (!(await confirm(`Revoke all ${keys.length}? [y/N] `))) throw new Error('nothing revoked');
    }
    const n = await store.revoke(keys.map((k) => k.id));
    console.log(`revoked ${n} key${n === 1 ? '' : 's'}: ${keys.map((k) => k.id).join(', ')}`);
  } else {
    throw new Error(usage);
  }
} catch (e) {
  console.error(`keys: ${(e as Error).message}`);
  process.exitCode = 2;
} finally {
  await store.close();
}

/** The active keys the arguments name, never more than one reading of them. */
async function revocationTargets(): Promise<KeyInfo[]> {
  const id = flag('id');
  const label = flag('label');
  const bare = rest.find((a, i) => !a.startsWith('--') && !['--id', '--label'].includes(rest[i - 1] ?? ''));
  const readings: [string, KeyInfo[]][] = [];
  if (id !== undefined) {
    if (!/^\d+$/.test(id)) throw new Error(`--id must be a number; got ${JSON.stringify(id)}`);
    readings.push([`id ${id}`, await store.find({ id: Number(id) })]);
  } else if (label !== undefined) readings.push([`label ${JSON.stringify(label)}`, await store.find({ label })]);
  else if (bare !== undefined) {
    if (/^\d+$/.test(bare)) readings.push([`id ${bare}`, await store.find({ id: Number(bare) })]);
    if (bare.startsWith('lk_')) readings.push(['the key given', await store.find({ key: bare })]);
    readings.push([`label ${JSON.stringify(bare)}`, await store.find({ label: bare })]);
  } else throw new Error('revoke needs --id N, --label NAME or the key');
  const found = readings.filter(([, keys]) => keys.length > 0);
  if (!found.length) throw new Error(`no active key with ${readings.map(([what]) => what).join(' or ')}`);
  if (found.length > 1) throw new Error(`${JSON.stringify(bare)} names different keys (${found.map(([what, keys]) => `${what}: ${keys.map((k) => k.id).join(', ')}`).join('; ')}); say which with --id or --label`);
  return found[0][1];
}

/** One line from standard input; only "y" or "yes" is a yes, and no input at all is a no. */
async function confirm(question: string): Promise<boolean> {
  process.stderr.write(question);
  const rl = createInterface({ input: process.stdin });
  const answer = await new Promise<string>((resolve) => {
    rl.once('line', resolve);
    rl.once('close', () => resolve(''));
  });
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}
