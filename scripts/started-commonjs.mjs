// esbuild starts a CommonJS package (runs its module body) where it is first imported, inside the
// code of whichever chunk of main.js imports it first: pako's tables, say, were built in the task
// that evaluated isomorphic-git's chunk, then the tokenizer's, each already the largest of the
// plugin's load. This plugin sends every import of the packages it names through a module that
// re-exports the package, which starts it; named as chunk boundaries too (esbuild.config.mjs), each
// such module is a chunk of its own, which main.js's loader evaluates in a task of its own before
// the chunks that import it (scripts/chunked-plugin.mjs).

const NAMESPACE = 'started-commonjs';

/**
 * @param {string[]} packages  the packages' names, as imported
 * @returns {import('esbuild').Plugin}
 */
export function startedCommonJs(packages) {
  const filter = new RegExp(`^(?:${packages.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
  return {
    name: NAMESPACE,
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        // The module's own import of the package resolves as esbuild would.
        if (args.pluginData?.[NAMESPACE] === true) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { [NAMESPACE]: true } });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: NAMESPACE, pluginData: { name: args.path, resolveDir: args.resolveDir } };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const name = JSON.stringify(args.pluginData.name);
        return { contents: `export * from ${name};\nexport { default } from ${name};\n`, resolveDir: args.pluginData.resolveDir, pluginData: { [NAMESPACE]: true }, loader: 'js' };
      });
    },
  };
}
