/** `npm run data:update`: see server/data/update.ts. Exit 1 (previous file kept) on any failure. */
import { updateSchedule } from '../data/update.js';

try {
  const r = await updateSchedule({ log: (l) => console.log(l) });
  console.log(`schedule updated to ${r.revision}`);
} catch (e) {
  console.error(`data:update failed, previous schedule kept: ${(e as Error).message}`);
  process.exit(1);
}
