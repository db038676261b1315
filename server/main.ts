/**
 * `npm start`'s entry (dist/server/main.js): the Node version checked before anything else is
 * loaded. The service needs node:sqlite (Node 22.13 and newer); on an older Node its import would
 * die with a stack trace before any code ran, so the service itself (serve.ts) is imported only
 * after the check.
 */
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.error(`landed needs Node 22.13 or newer; this is ${process.versions.node}`);
  process.exit(1);
}
// Node's own on-disk cache of compiled code (a public API since 22.1): later starts skip compiling the bundle.
(await import('node:module')).enableCompileCache?.();
await import('./serve.js');
