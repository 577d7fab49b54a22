// Stands in for `ajv` (and `noAjvFormats.ts` for `ajv-formats`) in the plugin's bundle (see esbuild.config.mjs), saving
// about 240 KB of main.js. The MCP SDK's server only needs a JSON Schema validator to check
// answers to elicitation requests, which Recursa never sends; tool arguments and results are
// checked with zod. Should one be asked for anyway, it refuses instead of passing anything.

interface ErrorObject {
  instancePath: string;
  message: string;
}

type ValidateFunction = ((data: unknown) => boolean) & { errors: ErrorObject[] | null };

const REFUSAL: ErrorObject = { instancePath: '', message: 'JSON Schema validation is not available in the Obsidian plugin' };

/** A validator that refuses every value. */
export default class NoAjv {
  errors: ErrorObject[] | null = null;

  getSchema(): undefined {
    return undefined;
  }

  compile(): ValidateFunction {
    return Object.assign(() => false, { errors: [REFUSAL] });
  }

  errorsText(errors: ErrorObject[] | null | undefined = this.errors): string {
    return (errors ?? []).map((error) => error.message).join(', ');
  }
}
