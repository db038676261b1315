/**
 * V8's heap as answering requests needs it.
 *
 * Allocation-site pretenuring is turned off once the data is loaded: V8 moves the objects of an
 * allocation site straight into the old generation once most of them survive a young collection,
 * and an order's answer keeps every line's objects until it is written, so one young collection
 * during an order made the engine's result sites "long-lived". From then on every result of every
 * request was allocated in the old generation, touched fresh pages and waited for a full
 * collection: a 1,000-line order took about 1.5 times as long (README, Performance). Loading the
 * data, whose objects do live as long as the process, keeps the heuristic.
 *
 * One of Node's tick objects is kept for the life of the process (keepTickObjectMaps).
 */
import { executionAsyncResource } from 'node:async_hooks';
import { setFlagsFromString } from 'node:v8';

export function heapForRequests(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

let keptTick: object | null = null;

/**
 * Keeps one tick object of `process.nextTick` alive, so that every later one has the same maps.
 * Node (20) makes each as an object literal with symbol keys, and V8 keeps the map each key leads
 * to only weakly; a full collection at a moment when no tick object is alive frees them, the next
 * tick makes new ones, and V8 then marks those property sites megamorphic for good: from then on
 * every nextTick, which Node's streams call several times a request, goes through V8's runtime.
 * That cost 20.3 µs a GET /duty against 17.1 µs (README, Performance). A live tick object holds
 * its map, and the map holds the maps before it. To be called before the data is loaded (its full
 * collections could free the maps first).
 *
 * The object is the running tick's own resource (executionAsyncResource), not caught with an
 * async hook: enabling any hook, even for one tick, turns off V8's fast paths for promises for the
 * life of the process. It helps until async ids pass V8's small integers (about 2^31, some 10^8
 * requests): tick objects then need another map whatever is kept. Resolves with whether a tick
 * object was kept.
 */
export function keepTickObjectMaps(): Promise<boolean> {
  return new Promise((resolve) => {
    const caught = (): void => {
      const resource = executionAsyncResource() as { callback?: unknown };
      if (resource.callback === caught) keptTick = resource;
      resolve(keptTick !== null);
    };
    process.nextTick(caught);
  });
}
