/**
 * `npm run --silent keys -- create --label NAME` prints the new key alone on its last line;
 * `list` shows labels, creation and last use (never a key); `revoke ID|LABEL` revokes.
 */
import { KeyStore } from '../auth/key-store.js';
import { keysPath } from '../config.js';

const [command, ...rest] = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : rest.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};
const usage = 'usage: keys create --label NAME | keys list | keys revoke ID|LABEL';

let store: KeyStore;
try {
  store = new KeyStore(keysPath());
} catch (e) {
  console.error(`keys: cannot open ${keysPath()}: ${(e as Error).message}`);
  process.exit(2);
}
try {
  if (command === 'create') {
    const label = flag('label');
    if (!label) throw new Error('create needs --label NAME');
    const { key, info } = store.create(label);
    console.error(`Created key ${info.id} "${info.label}". It is shown once: store it now; a lost key is revoked and replaced.`);
    console.log(key);
  } else if (command === 'list') {
    const keys = store.list();
    if (!keys.length) console.log('no keys');
    for (const k of keys)
      console.log([k.id, k.label, `created ${k.created_at}`, `last used ${k.last_used_at ?? 'never'}`, k.revoked_at ? `revoked ${k.revoked_at}` : 'active'].join('\t'));
  } else if (command === 'revoke') {
    const target = rest[0];
    if (!target) throw new Error('revoke needs a key id or label');
    const n = store.revoke(target);
    if (!n) throw new Error(`no active key with id or label ${JSON.stringify(target)}`);
    console.log(`revoked ${n} key${n === 1 ? '' : 's'}`);
  } else {
    throw new Error(usage);
  }
} catch (e) {
  console.error(`keys: ${(e as Error).message}`);
  process.exitCode = 2;
} finally {
  store.close();
}
