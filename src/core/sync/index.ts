export { syncVaultHistory, type SyncOptions, type SyncProgress, type SyncResult, type SyncStep } from './syncRepository';
export { SyncError, type SyncErrorCode } from './SyncError';
export type { GitHttpClient } from './gitHttpClient';
export { readRemoteUrl, setRemoteUrl, stripCredentials, type SplitUrl } from './remoteConfig';
export { conflictCopyName } from './conflictCopyName';
