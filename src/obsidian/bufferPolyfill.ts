// The `Buffer` that isomorphic-git names, in the plugin (scripts/bundled-isomorphic-git.mjs):
// Obsidian's mobile WebViews have none. The trailing slash picks the npm polyfill, never a Node
// builtin. A module of its own, so that the polyfill starts up in a chunk of its own.
export { Buffer } from 'buffer/';
