export * from './errors';
export * from './mem';
export * from './ports';
export { DEFAULT_PATH_POLICY, normalizeVaultPath, type PathPolicy } from './paths/pathPolicy';
export { countTokens } from './tokens/countTokens';
