/**
 * Electron's `require` in the desktop app's renderer, for Node's builtins; null where there is none
 * (mobile, tests without a window). `window.require`, not `require`: the bundler must leave Node
 * builtins alone, as the plugin also runs on mobile.
 */
export function desktopRequire(): ((id: string) => unknown) | null {
  const load = typeof window === 'undefined' ? undefined : (window as unknown as { require?: (id: string) => unknown }).require;
  return typeof load === 'function' ? load : null;
}
