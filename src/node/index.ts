/** The headless library entry, built to `dist/recursa.mjs`. */
export { openVault, type OpenedVault, type OpenVaultOptions } from './openVault';
export { NodeVaultPort, type NodeVaultPortOptions } from './NodeVaultPort';
export * from '../core';
export { runScript, type RunScriptOptions, type RunScriptResult } from './runScript';
export { createNodeSandboxWorker, type NodeSandboxWorkerOptions } from './nodeSandboxWorker';
export { Sandbox, type RunOptions, type SandboxOptions } from '../core/sandbox/Sandbox';
export { DEFAULT_RUN_LIMITS, type LogLine, type RunError, type RunLimits, type RunResult } from '../core/sandbox/protocol';
export { ask, type AskOptions } from './ask';
export { createNodeHttpTransport } from './nodeHttpTransport';
export { createProvider } from '../core/llm/createProvider';
export type { ChatMessage, LlmProvider, ProviderSettings } from '../core/llm/types';
export type { AgentEvent, AgentOutcome, RunState } from '../core/agent/runAgent';
export { DEFAULT_BUDGETS, type AgentBudgets } from '../core/agent/budgets';
export { createNodeVaultRegistry } from './nodeVaultRegistry';
export { createAgentMemory, type AgentMemory } from '../core/memory/agentMemory';
export type { RecallResult, RecalledMemory } from '../core/mem/recall';
export type { ActionResult, ActionLogEntry } from '../core/agent/actions';
export { syncVault, type SyncVaultOptions } from './syncVault';
