// Stands in for `ajv-formats` in the plugin's bundle, beside `noAjv.ts` (see there for why).

/** Adds no formats: the stand-in validator refuses everything anyway. */
export default function addFormats<T>(ajv: T): T {
  return ajv;
}
