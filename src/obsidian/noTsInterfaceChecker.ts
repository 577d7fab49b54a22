// Stands in for `ts-interface-checker` in the plugin's bundle (see esbuild.config.mjs), saving
// about 16 KB of main.js. Sucrase uses it only to check the options `transform` is given, and
// Recursa always gives the same ones (`prepareCode`); the library and the command line, built
// with the real checker, check those very options in every test that runs code.

/** A type description, which nothing here reads. */
const anyType = (): Record<string, never> => ({});

export const array = anyType;
export const iface = anyType;
export const lit = anyType;
export const opt = anyType;
export const union = anyType;

/** Checkers that accept every value: `Options.strictCheck(options)` is all Sucrase asks of them. */
export function createCheckers(): Record<string, { strictCheck(value: unknown): void }> {
  return new Proxy({}, { get: () => ({ strictCheck: (): void => undefined }) });
}
