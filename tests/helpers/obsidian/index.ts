/**
 * A test implementation of the slice of the `obsidian` module the plugin uses, over a real
 * folder. vitest aliases `obsidian` to this file; each class is type-checked against the official
 * declarations (`implements` the official type), so it cannot drift from them.
 */
export { FileSystemAdapter } from './adapter';
export { App } from './app';
export { Events, type EventRef } from './events';
export { FileManager } from './fileManager';
export { TAbstractFile, TFile, TFolder } from './files';
export { normalizePath } from './paths';
export { Platform } from './platform';
export { requestUrl } from './requestUrl';
export { Vault } from './vault';
