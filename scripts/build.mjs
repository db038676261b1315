// Builds everything `npm start` serves: the API server (dist/server), the prebuilt index of its data
// (dist/data/tariff-index.json, by the server's own code) and the search index of the schedule
// (dist/data/search-index.json), then each add-in's own build
// (excel-addin/build.mjs → dist/excel, sheets-addon/build.mjs → dist/sheets).
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The names of a module's plain values, read in a Node process of their own: some of Node's getters
 * become plain values once read, and this process may have read one.
 */
const valuesOf = (path) =>
  JSON.parse(
    execFileSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(Object.entries(Object.getOwnPropertyDescriptors(process.getBuiltinModule(${JSON.stringify(path)}))).filter(([, d]) => 'value' in d).map(([n]) => n)))`], { encoding: 'utf8' }),
  );

/**
 * Node's own modules taken as `process.getBuiltinModule` gives them, not by an ES `import`: that makes
 * Node build the module's ES facade, which reads every export, and some exports load more modules
 * when read (node:fs its streams, promises and readline; node:crypto WebCrypto). Each becomes a
 * small ES module exporting the module's plain values as the Node running the build (the one that
 * runs the bundle) names them; a getter, read only when used, is not among them, so an import of one
 * fails the build. Not a CommonJS module: esbuild's copy of every export of one is as slow as the
 * facade. node:http is taken so in the source (server/http/server.ts), for the same reason. About
 * 8 ms of a start here (docs/performance.md).
 */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (a) => (a.kind === 'import-statement' ? { path: a.path, namespace: 'builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => {
      const values = valuesOf(a.path).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      return { contents: `const m = process.getBuiltinModule(${JSON.stringify(a.path)});\nexport default m;\nexport const { ${values.join(', ')} } = m;\n`, loader: 'js' };
    });
  },
};

// Chunks are named by content: clear the old ones rather than let them pile up.
rmSync(join(root, 'dist/server'), { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'server/main.ts'), join(root, 'server/cli/keys.ts'), join(root, 'server/data/tariff-index.ts'), join(root, 'server/data/search-index.ts')],
  outdir: join(root, 'dist/server'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Modules imported on demand stay in their own chunks: the PostgreSQL and Redis clients (~180 ms
  // to load) are loaded only when DATABASE_URL or REDIS_URL asks for them.
  splitting: true,
  target: 'node22',
  // The packages are bundled too: resolving and loading a few hundred files of node_modules one by
  // one took about a third of the start. Not the network clients
  // (loaded on demand, and pg's optional native driver is not installed).
  external: ['pg', 'pg-native', 'ioredis'],
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none.
  banner: { js: "import { createRequire as __landedRequire } from 'node:module'; const require = __landedRequire(import.meta.url);" },
  plugins: [builtinsByRequire],
  sourcemap: true,
  logLevel: 'warning',
});

// Built from the data files the environment names (HTS_DATA, CH99_DATA or the defaults). A data file
// that cannot be read leaves no index (the last build's is removed first), not a failed build: the
// start reports the file. The search index reads the schedule through the tariff index written
// just before it; without one, the first search builds it.
const { writeIndex, indexPath } = await import(pathToFileURL(join(root, 'dist/server/data/tariff-index.js')).href);
const { writeSearchIndex, searchIndexPath } = await import(pathToFileURL(join(root, 'dist/server/data/search-index.js')).href);
for (const [write, path] of [
  [writeIndex, indexPath],
  [writeSearchIndex, searchIndexPath],
]) {
  rmSync(path, { force: true });
  try {
    write();
  } catch (e) {
    console.warn(`build: no prebuilt index written to ${path}: ${e.message}`);
  }
}

for (const addin of ['excel-addin', 'sheets-addon']) {
  const script = join(root, addin, 'build.mjs');
  if (existsSync(script)) await (await import(pathToFileURL(script).href)).default(root);
}
