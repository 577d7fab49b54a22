/**
 * Notes larger than this are indexed by their beginning only (`onPartialNote` says which): one
 * huge file (a log, an export) must not make the index take gigabytes.
 */
export const MAX_INDEXED_NOTE_BYTES = 16 * 1024 * 1024;
