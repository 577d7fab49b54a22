// Everything the plugin's class (src/main.ts) uses once it is loading, in one module that `onload`
// imports. The plugin is built in chunks (scripts/chunked-plugin.mjs): Obsidian evaluates main.js,
// which holds the class, in a single task; this module and what it imports are evaluated after,
// in tasks of their own, so the app stays responsive while the plugin loads.
export { ConversationStore } from '../core/agent/ConversationStore';
export { MAX_INDEXED_NOTE_BYTES } from '../core/graph/noteLimits';
export { redactSecrets } from '../core/text/redactSecrets';
export { nextTask } from '../core/util/nextTask';
export { CHAT_VIEW_TYPE, ChatView } from './chat/ChatView';
export { modelLabel } from './chat/modelLabel';
export { ReadRecorder } from './chat/readRecorder';
export { confirmAction } from './ConfirmModal';
export { loadDesktopDeflate } from './desktopDeflate';
export { createDesktopVaultRegistry } from './desktopVaultRegistry';
export { agentChangeMarkers, changeMarkersSlot } from './editor/agentChangeMarkers';
export { loadAgentChanges } from './editor/loadAgentChanges';
export { loadHistory } from './history/historyModel';
export { HISTORY_VIEW_TYPE, HistoryView } from './history/HistoryView';
export { PluginMcpServer } from './mcp/PluginMcpServer';
export { createObsidianHttpTransport } from './obsidianHttpTransport';
export { openPluginSettings } from './openPluginSettings';
export { ObsidianVaultPort } from './ObsidianVaultPort';
export { readApiKey, readSecret, settingsFromData, settingsToSave, toAgentSettings, toMemOptions } from './settings/pluginSettings';
export { RecursaSettingTab } from './settings/RecursaSettingTab';
export { RecursaStatusBar } from './statusBar';
export { installSync, startSync } from './sync/pluginSync';
