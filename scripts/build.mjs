// Builds everything `npm start` serves: the API server (dist/server), then each add-in's own
// build (excel-addin/build.mjs → dist/excel, sheets-addon/build.mjs → dist/sheets).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

await build({
  entryPoints: [join(root, 'server/main.ts'), join(root, 'server/cli/keys.ts')],
  outdir: join(root, 'dist/server'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Modules imported on demand stay in their own chunks: the PostgreSQL and Redis clients (~180 ms
  // to load) are loaded only when DATABASE_URL or REDIS_URL asks for them.
  splitting: true,
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

for (const addin of ['excel-addin', 'sheets-addon']) {
  const script = join(root, addin, 'build.mjs');
  if (existsSync(script)) await (await import(pathToFileURL(script).href)).default(root);
}
