/**
 * `npm start`: the service with the embedded defaults (port 8080, the schedule beside the checkout,
 * data/keys.sqlite). SIGTERM/SIGINT finish the requests in flight, then exit.
 */
import { buildApp } from './app.js';
import { loadDeps } from './config.js';

let deps;
try {
  deps = loadDeps();
} catch (e) {
  console.error(`landed: cannot start: ${(e as Error).message}`);
  process.exit(1);
}

const app = buildApp({
  ...deps,
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
});

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '0.0.0.0';
await app.listen({ port, host });
app.log.info({ hts_revision: deps.tariff.revision, lines: deps.tariff.schedule.size }, 'ready');

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    app
      .close()
      .then(() => {
        deps.keys.close();
        process.exit(0);
      })
      .catch(() => process.exit(1));
  });
}
