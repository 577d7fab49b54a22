export { createMem, memForRun, MEM_METHOD_NAMES, MEM_OPERATIONS, type Mem, type MemInstance, type MemMethodName, type MemParts, type RunScopedMem } from './createMem';
export { WriteBudget, type RunScope } from './runScope';
export type { MemContext, MemSession } from './MemContext';
export { DEFAULT_MEM_OPTIONS, LOGSEQ_CONFIG_PATH, resolveMemOptions, type MemOptions } from './options';
export type { PathTokenCount } from './getTokenCountForPaths';
export { WriteSet, type FileFingerprint, type OriginalStore, type WriteSetEntry } from './WriteSet';
