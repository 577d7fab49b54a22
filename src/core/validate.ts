import { InvalidArgumentError } from './errors';
import { normalizeVaultPath, type NormalizeOptions, type PathPolicy } from './paths/pathPolicy';

/**
 * Argument checks shared by every entry point that takes values from untrusted code (`mem`, the
 * sandbox host). Each returns the checked value, narrowed, or throws `InvalidArgumentError` /
 * `PathRefusedError`.
 */

/** A short description of a value for an error message, never echoing large or hostile content. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return typeof value === 'object' ? 'an object' : `${typeof value}`;
}

export interface StringLimits {
  /** Maximum length in UTF-16 code units. Default: no limit. */
  maxLength?: number;
  /** Refuse the empty string. Default false. */
  nonEmpty?: boolean;
}

export function requireString(value: unknown, name: string, limits: StringLimits = {}): string {
  if (typeof value !== 'string') throw new InvalidArgumentError(name, 'a string', describeValue(value));
  if (limits.nonEmpty === true && value.length === 0) {
    throw new InvalidArgumentError(name, 'a non-empty string', 'an empty string');
  }
  if (limits.maxLength !== undefined && value.length > limits.maxLength) {
    throw new InvalidArgumentError(name, `at most ${limits.maxLength} characters`, describeValue(value));
  }
  return value;
}

/** A vault path checked and normalized by the one path policy. */
export function requirePath(value: unknown, policy: PathPolicy, options?: NormalizeOptions): string {
  return normalizeVaultPath(value, policy, options);
}

export function requireArray(value: unknown, name: string, maxItems: number): unknown[] {
  if (!Array.isArray(value)) throw new InvalidArgumentError(name, 'an array', describeValue(value));
  if (value.length > maxItems) throw new InvalidArgumentError(name, `at most ${maxItems} items`, describeValue(value));
  return value;
}
