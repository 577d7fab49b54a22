// The page of tests/e2e/history-view.test.ts: the plugin's history view in a leaf, over the real
// GitService running in the page on a real folder (through RemoteVaultPort).
import type { WorkspaceLeaf } from 'obsidian';
import { GitService } from '../../../src/core/git/GitService';
import { WriteSet } from '../../../src/core/mem/WriteSet';
import { HistoryView } from '../../../src/obsidian/history/HistoryView';
import { notices } from '../helpers/obsidianUi';
import { RemoteVaultPort } from '../helpers/remoteVaultPort';

export interface PageHistory {
  open(): Promise<void>;
  refresh(): Promise<void>;
  notices(): string[];
  opened(): string[];
  reverted(): string[];
}

declare global {
  interface Window {
    recursaHistory: PageHistory;
  }
}

const opened: string[] = [];
const reverted: string[] = [];
const app = {
  secretStorage: { getSecret: () => null, setSecret: () => undefined, listSecrets: () => [] },
  workspace: {
    opened,
    openLinkText: async (link: string) => {
      opened.push(link);
    },
  },
};
let view: HistoryView | null = null;

window.recursaHistory = {
  async open() {
    const port = new RemoteVaultPort();
    const git = await GitService.open(port, new WriteSet(port), { configDir: '.obsidian' });
    const containerEl = document.getElementById('leaf');
    if (containerEl === null) throw new Error('no #leaf');
    const leaf = { app, containerEl } as unknown as WorkspaceLeaf;
    view = new HistoryView(leaf, { git: () => git, newRunId: () => 'history-revert', onReverted: (hash) => void reverted.push(hash) });
    await view.onOpen();
  },
  async refresh() {
    await view?.refresh();
  },
  notices: () => [...notices],
  opened: () => [...opened],
  reverted: () => [...reverted],
};
