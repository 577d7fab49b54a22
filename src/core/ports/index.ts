export type { ReadOptions, StatAndBytes, VaultChange, VaultChangeListener, VaultListing, VaultPort, VaultStat } from './vault';
export { ChangeFeed } from './ChangeFeed';
export { walkEntries, walkFiles } from './walkFiles';
export { readTextIfExists } from './readTextIfExists';
export { removeIfExists } from './removeIfExists';
export type { HttpRequest, HttpResponse, HttpTransport } from './http';
export { HttpTransportError } from './http';
export type { ForeignMemoryFile, RegisteredVault, RegistryFileSystem, VaultRegistry } from './vaultRegistry';
export { listingOf, readLinkOrNull, type DirectoryEntry } from './listingOf';
