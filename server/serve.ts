/**
 * The service, started by main.ts once the Node version is checked: the embedded defaults (port 8080, the data snapshot under data/,
 * data/keys.sqlite; DATABASE_URL and REDIS_URL share keys and limits among instances). A
 * configuration mistake stops the start with one line and exit 1. SIGTERM and SIGINT finish the
 * requests in flight, then exit.
 */
import { buildApp } from './app.js';
import { loadDeps, loadTariff, readSettings } from './config.js';
import { prepareSearch } from './data/search-index.js';

/** How long after `ready` the search index is read. */
const SEARCH_AFTER_READY_MS = 250;

function cannotStart(message: string): never {
  console.error(`landed: cannot start: ${message}`);
  process.exit(1);
}

let settings;
let deps;
let rebuilt: string | undefined;
try {
  settings = readSettings();
  deps = await loadDeps(process.env, loadTariff(process.env, (reason) => (rebuilt = reason)));
} catch (e) {
  cannotStart((e as Error).message);
}

const app = buildApp({ ...deps, logger: { level: settings.logLevel } });
if (rebuilt) app.log.warn({ reason: rebuilt }, 'schedule and chapter 99 tables built from the data files, not the prebuilt index');

try {
  await app.listen({ port: settings.port, host: settings.host });
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  cannotStart(
    err.code === 'EADDRINUSE'
      ? `port ${settings.port} on ${settings.host} is already in use (set PORT to another port)`
      : err.code === 'EACCES'
        ? `no permission to listen on port ${settings.port} (ports below 1024 need privileges; set PORT)`
        : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
          ? `HOST ${JSON.stringify(settings.host)} is not an address of this machine`
          : err.message,
  );
}
app.log.info({ hts_revision: deps.tariff.revision, lines: deps.tariff.schedule.size }, 'ready');
// At once, not with the next 4 kB of lines (server/log.ts): a supervisor may wait for it.
app.log.flush();
// Read now rather than on the first search, which would wait for it; after `ready`, so that a start never
// does; its files off the main thread, and a quarter of a second after `ready`, so that the first
// requests (those a restart held back) do not wait for its 20-40 ms of parsing, while a search 2 s
// after the start still finds it ready.
const searchLater = setTimeout(() => {
  const started = performance.now();
  void prepareSearch(deps.tariff, () => app.log.info({ ms: Math.round(performance.now() - started) }, 'search index loaded'));
}, SEARCH_AFTER_READY_MS);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    clearTimeout(searchLater);
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    app
      .close()
      .then(() => deps.close())
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  });
}
