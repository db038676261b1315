import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root: the nearest folder above this module with a package.json (source or build alike). */
export const projectRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

/** The data snapshot committed with the project (data/SOURCES.md says where each file comes from). */
export const dataDir = join(projectRoot, 'data');
