/** `~`, `null`, `Null`, `NULL`: a null plain scalar in YAML 1.2's core schema. */
export const NULL_VALUE = /^(?:~|null|Null|NULL)$/;
/** Where JavaScript might type a scalar differently from the YAML parser. */
export const UNSURE = Symbol('unsure');
const INTEGER = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/**
 * A plain scalar typed as YAML 1.2's core schema types it (what the parser's `toJS` gives), or
 * `UNSURE` where JavaScript might round differently (integers past 15 digits).
 */
export function coreScalar(text: string): unknown {
  if (text === '' || NULL_VALUE.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^0o[0-7]+$/.test(text)) return text.length > 17 ? UNSURE : parseInt(text.slice(2), 8);
  if (INTEGER.test(text)) return text.replace(/^[-+]?0*/, '').length > 15 ? UNSURE : Number(text);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return text.length > 14 ? UNSURE : parseInt(text.slice(2), 16);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  if (FLOAT.test(text)) return parseFloat(text);
  return text;
}
