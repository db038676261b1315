/**
 * Raw HTTP on a fresh connection, for requests no client library would send (encoded paths,
 * absolute-form targets, missing or doubled headers, invalid bytes, slow senders).
 */
import { connect } from 'node:net';

/** Sends `bytes` (then, with `drip`, that string every 100 ms) and returns all the server wrote before closing. */
export function rawExchange(url: string, bytes: Buffer | string, drip?: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => (received += d));
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    if (drip === undefined) socket.end(bytes);
    else {
      socket.write(bytes);
      timer = setInterval(() => socket.writable && socket.write(drip), 100);
    }
  });
}

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** The response of `rawExchange`, parsed (one response, Connection: close). */
export function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/** One request with the given target and headers, sent as raw bytes. */
export async function rawRequest(url: string, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<RawResponse> {
  const head = Object.entries({ host: 'localhost', connection: 'close', ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers })
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return parseResponse(await rawExchange(url, `${method} ${target} HTTP/1.1\r\n${head}\r\n${body}`));
}
