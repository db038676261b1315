/**
 * Node's own SQLite binding (node:sqlite). Node 22 marks it experimental and says so once on
 * standard error when it is first loaded (Node 24 does not): that one warning is left out, so a
 * start that fails still says one line, and the keys command prints only what it means to.
 */
import { createRequire } from 'node:module';

type Sqlite = typeof import('node:sqlite');

function loadQuietly(): Sqlite {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning instanceof Error ? warning.message : warning).startsWith('SQLite is an experimental feature')) (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return createRequire(import.meta.url)('node:sqlite') as Sqlite;
  } finally {
    process.emitWarning = emit;
  }
}

export const { DatabaseSync } = loadQuietly();
export type { StatementSync } from 'node:sqlite';
export type DatabaseSync = import('node:sqlite').DatabaseSync;
