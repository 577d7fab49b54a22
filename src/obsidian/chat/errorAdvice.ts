/** What to tell the user about a failed request, and the one action that fixes it. */
export interface ErrorAdvice {
  kind: 'not-ready' | 'auth' | 'quota' | 'rate-limit' | 'unreachable' | 'model-not-found' | 'context-too-long' | 'other';
  /** One plain sentence. */
  sentence: string;
  /** The fixing action: open the settings, choose another model, start a new chat, or try again. */
  action: 'settings' | 'model' | 'new-chat' | 'retry';
}

const RULES: readonly { test: RegExp; advice: ErrorAdvice }[] = [
  {
    test: /^Recursa is still opening this vault/,
    advice: { kind: 'not-ready', sentence: 'Recursa is still opening this vault. Try again in a moment.', action: 'retry' },
  },
  {
    test: /API key was refused|requires an API key|invalid[_ ]api[_ ]key|authentication/i,
    advice: { kind: 'auth', sentence: 'The provider did not accept the API key. Check the key in Recursa\'s settings.', action: 'settings' },
  },
  {
    test: /lack of quota|insufficient[_ ]quota|billing/i,
    advice: { kind: 'quota', sentence: 'Your account with the provider has run out of quota. Check your plan, or choose another provider.', action: 'settings' },
  },
  {
    test: /context length|context window|maximum context|too many tokens|prompt is too long|request_too_large|context_length_exceeded|token budget/i,
    advice: { kind: 'context-too-long', sentence: 'The conversation is too long for the model. Start a new chat, or attach fewer notes.', action: 'new-chat' },
  },
  {
    test: /limiting requests|rate limit/i,
    advice: { kind: 'rate-limit', sentence: 'The provider is limiting requests right now. Wait a minute, then try again.', action: 'retry' },
  },
  {
    test: /The model ".*" was not found|model_not_found|model not found/i,
    advice: { kind: 'model-not-found', sentence: 'The model in Recursa\'s settings is not available at this provider. Choose another model.', action: 'model' },
  },
  {
    test: /Could not reach|connection to .* broke|No answer from|ECONNREFUSED|Failed to fetch/i,
    advice: { kind: 'unreachable', sentence: 'Recursa could not reach the model\'s server. Check that it is running and the address is right, then try again.', action: 'retry' },
  },
];

/** The advice for a failure's message (as the provider layer words it); anything unknown gets a Retry. */
export function adviseOnError(message: string): ErrorAdvice {
  for (const rule of RULES) if (rule.test.test(message)) return rule.advice;
  return { kind: 'other', sentence: 'The request did not finish.', action: 'retry' };
}
