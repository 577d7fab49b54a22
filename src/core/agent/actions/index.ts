export { ActionJournal, DEFAULT_ACTION_LOG_SIZE, actionLogPath } from './ActionJournal';
export { ACTIONS_PROMPT } from './actionsPrompt';
export { createActionRunner, type ActionRunner, type ActionRunnerOptions } from './executeActions';
export { formatActionResults } from './formatActionResults';
export { MAX_ACTIONS, parseActionsResponse, type ParsedActionsResponse } from './parseActions';
export { ACTION_KINDS, type Action, type ActionKind, type ActionLogEntry, type ActionResult, type RawAction } from './types';
export { validateAction, type Validated } from './validateActions';
