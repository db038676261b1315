/**
 * V8's heap as answering requests needs it. Allocation-site pretenuring is turned off once the
 * data is loaded: V8 moves the objects of an allocation site straight into the old generation
 * once most of them survive a young collection, and an order's answer keeps every line's objects
 * until it is written, so one young collection during an order made the engine's result sites
 * "long-lived". From then on every result of every request was allocated in the old generation,
 * touched fresh pages and waited for a full collection: a 1,000-line order took about 1.5 times
 * as long (README, Performance). Loading the data, whose objects do live as long as the process,
 * keeps the heuristic.
 */
import { setFlagsFromString } from 'node:v8';

export function heapForRequests(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
