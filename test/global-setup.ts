/**
 * Every temporary folder a test run makes (servers' key stores, built add-ins, PostgreSQL and Redis
 * data, the browser's profile) goes under one folder of its own, removed when the run ends: a run
 * leaves nothing in the system's temporary folder.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'landed-run-'));
  // Others may pass through (not list): the PostgreSQL tests run initdb as the postgres user in a folder of theirs inside.
  chmodSync(dir, 0o711);
  // Read by os.tmpdir() in the test workers and the processes they start, which inherit it.
  process.env.TMPDIR = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}
