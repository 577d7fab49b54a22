// Stands in for `zod-to-json-schema` in the plugin's bundle (see esbuild.config.mjs), like
// `noAjv.ts`. The MCP SDK converts zod 3 schemas with it; Recursa's tools use zod 4 schemas,
// which the SDK converts with zod's own `toJSONSchema`, so this is never called.

/** Refuses: only zod 4 schemas are supported in the plugin. */
export function zodToJsonSchema(): never {
  throw new Error('zod 3 schemas are not supported in the Obsidian plugin: use zod/v4');
}
