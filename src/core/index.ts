export * from './errors';
export * from './mem';
export * from './ports';
export { DEFAULT_PATH_POLICY, normalizeVaultPath, type PathPolicy } from './paths/pathPolicy';
export { countTokens } from './tokens/countTokens';
export { GitService, DEFAULT_AUTHOR, SNAPSHOT_MESSAGE, type GitEvent, type GitServiceOptions } from './git/GitService';
export type { LogEntry } from './git/history';
export type { GitIdentity } from './git/commitObjects';
export { createGitFs, GIT_ROOT } from './git/gitFs';
