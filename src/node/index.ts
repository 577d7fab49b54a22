/** The headless library entry, built to `dist/recursa.mjs`. */
export { openVault, type OpenedVault, type OpenVaultOptions } from './openVault';
export { NodeVaultPort, type NodeVaultPortOptions } from './NodeVaultPort';
export * from '../core';
