export type { VaultChange, VaultChangeListener, VaultListing, VaultPort, VaultStat } from './vault';
