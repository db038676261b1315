// One Apps Script execution at a time, in a worker thread: Code.js run in a fresh global scope (as
// Apps Script gives each execution), its services being the parent's (gas.ts: the sheet, caches,
// properties, the document lock, the real HTTP fetches), reached synchronously: each call is posted
// on `port` and the thread sleeps on `flag` until the parent has answered it. Utilities.sleep is
// the thread's own. Messages from the parent: {index, name, args, roots}; answers: {index, value} or
// {index, error}.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const { code, flag: flagBuffer, port } = workerData;
const flag = new Int32Array(flagBuffer);
const script = new vm.Script(readFileSync(code, 'utf8'), { filename: 'Code.js' });

function call(message) {
  Atomics.store(flag, 0, 0);
  port.postMessage(message);
  Atomics.wait(flag, 0, 0);
  const reply = receiveMessageOnPort(port).message;
  if ('error' in reply) throw new Error(reply.error);
  return unwrap(reply);
}

function unwrap(reply) {
  if ('handle' in reply) return remote(reply.handle);
  if ('items' in reply) return reply.items.map(unwrap);
  return reply.value;
}

/** A service object of the parent: every property read is a method calling it there. */
function remote(handle) {
  return new Proxy({}, { get: (_, method) => (method === 'then' || typeof method === 'symbol' ? undefined : (...args) => call({ handle, method, args })) });
}

parentPort.on('message', ({ index, name, args, roots }) => {
  const services = Object.fromEntries(Object.entries(roots).map(([k, handle]) => [k, remote(handle)]));
  services.Utilities = { sleep: (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) };
  const context = vm.createContext({ ...services, console });
  script.runInContext(context);
  try {
    parentPort.postMessage({ index, value: JSON.parse(JSON.stringify(context[name](...args))) });
  } catch (e) {
    parentPort.postMessage({ index, error: e instanceof Error ? e.message : String(e) });
  }
});
