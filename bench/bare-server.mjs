/**
 * The reference for the HTTP and start-up benchmarks: what it costs Node to answer HTTP at all. A
 * bare node:http server answering every request with one fixed JSON body of BODY_BYTES bytes.
 * With READ_JSON=1 it first reads a POST's body and parses it (JSON.parse), as any JSON service
 * must: the floor of a bulk order. With ANSWER_FILE, it answers a POST with that JSON file's
 * content (parsed once at start) written anew by one JSON.stringify: the plainest service that
 * answers in JSON, with no costing at all. Plain JavaScript, so its start-up carries no
 * TypeScript loader.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bytes = Number(process.env.BODY_BYTES ?? 1000);
const filler = 'x'.repeat(Math.max(0, bytes - '{"pad":""}'.length));
const body = Buffer.from(JSON.stringify({ pad: filler }));

const readJson = process.env.READ_JSON === '1';
const answerObject = process.env.ANSWER_FILE ? JSON.parse(readFileSync(process.env.ANSWER_FILE, 'utf8')) : undefined;
/** The fixed body, or with ANSWER_FILE the file's answer written anew. */
const answer = (res) => {
  const text = answerObject === undefined ? body : Buffer.from(JSON.stringify(answerObject));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': text.length });
  res.end(text);
};

const server = createServer((req, res) => {
  if (!readJson || req.method !== 'POST') {
    req.resume();
    return answer(res);
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString());
    answer(res);
  });
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const a = server.address();
  if (a && typeof a === 'object') console.log(`bare server listening at http://127.0.0.1:${a.port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
