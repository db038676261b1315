/**
 * The add-on's library, bundled as the global `Landed`. build.mjs appends a top-level function
 * for each function exported by the files below, with its JSDoc, calling into this library.
 */
export * from './functions.js';
export * from './addon.js';
export * from './refund.js';
