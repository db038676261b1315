/**
 * The reference for the HTTP and start-up benchmarks: what it costs Node to answer HTTP at all. A
 * bare node:http server answering every request with one fixed JSON body of BODY_BYTES bytes.
 * Plain JavaScript, so its start-up carries no TypeScript loader.
 */
import { createServer } from 'node:http';

const bytes = Number(process.env.BODY_BYTES ?? 1000);
const filler = 'x'.repeat(Math.max(0, bytes - '{"pad":""}'.length));
const body = Buffer.from(JSON.stringify({ pad: filler }));

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const a = server.address();
  if (a && typeof a === 'object') console.log(`bare server listening at http://127.0.0.1:${a.port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
