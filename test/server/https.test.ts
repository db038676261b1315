/** TLS_CERT and TLS_KEY make the service answer over https (what Office needs to load the add-in). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server.js';

describe('https', () => {
  it('serves /healthz over TLS with the given certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'landed-tls-'));
    const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    const srv = await startServerProcess({ TLS_CERT: cert, TLS_KEY: key });
    try {
      expect(srv.url).toMatch(/^https:/);
      const body = await new Promise<string>((resolve, reject) =>
        get(`${srv.url}/healthz`, { rejectUnauthorized: false }, (res) => {
          let t = '';
          res.on('data', (c) => (t += c));
          res.on('end', () => resolve(t));
        }).on('error', reject),
      );
      expect(JSON.parse(body).status).toBe('ok');
    } finally {
      await srv.close();
    }
  });
});
