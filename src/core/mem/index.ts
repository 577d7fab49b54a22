export { createMem, MEM_METHOD_NAMES, MEM_OPERATIONS, type Mem, type MemInstance, type MemMethodName } from './createMem';
export type { MemContext } from './MemContext';
export { DEFAULT_MEM_OPTIONS, LOGSEQ_CONFIG_PATH, resolveMemOptions, type MemOptions } from './options';
export type { PathTokenCount } from './getTokenCountForPaths';
export { WriteSet, type WriteSetEntry } from './WriteSet';
