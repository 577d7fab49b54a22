import { describe, expect, it } from 'vitest';
import { errorFromStatus, providerContext } from '../../../../src/core/llm/httpErrors';
import { adviseOnError } from '../../../../src/obsidian/chat/errorAdvice';

const context = providerContext('openai', 'https://api.example.com/v1', 'gpt-test', 'sk-test');
const said = (status: number, body: object): string => errorFromStatus(status, JSON.stringify(body), {}, context).message;

describe('adviseOnError', () => {
  describe('when the provider layer words a failure', () => {
    it.each([
      ['auth', said(401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }), 'settings'],
      ['quota', said(429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }), 'settings'],
      ['rate-limit', said(429, { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }), 'retry'],
      ['model-not-found', said(404, { error: { message: 'The model does not exist', code: 'model_not_found' } }), 'model'],
      ['context-too-long', said(400, { error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } }), 'new-chat'],
    ])('gives %s the action that fixes it', (kind, message, action) => {
      expect(adviseOnError(message)).toMatchObject({ kind, action });
    });
  });

  it('tells an unreachable server from one that answered', () => {
    expect(adviseOnError('Could not reach http://127.0.0.1:1234 (ECONNREFUSED). Check the base URL and that the server is running.')).toMatchObject({ kind: 'unreachable', action: 'retry' });
  });

  it('offers a Retry for anything it does not know, in a plain sentence', () => {
    expect(adviseOnError('Something odd happened')).toEqual({ kind: 'other', sentence: 'The request did not finish.', action: 'retry' });
  });
});
