export * from './errors';
export * from './mem';
export type * from './ports';
export { DEFAULT_PATH_POLICY, normalizeVaultPath, type PathPolicy } from './paths/pathPolicy';
