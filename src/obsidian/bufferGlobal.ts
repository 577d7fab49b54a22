// Injected by esbuild wherever bundled code names the global `Buffer` (isomorphic-git does).
// Obsidian's mobile WebViews have no Node `Buffer`; the trailing slash picks the npm polyfill,
// never a Node builtin.
export { Buffer } from 'buffer/';
