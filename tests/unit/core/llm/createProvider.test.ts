import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../src/core/errors';
import { createProvider } from '../../../../src/core/llm/createProvider';
import type { ProviderSettings } from '../../../../src/core/llm/types';
import { createNodeHttpTransport } from '../../../../src/node/nodeHttpTransport';
import { thrownBy } from '../../../helpers/errors';

describe('createProvider', () => {
  it.each([
    ['openai', 'openai'],
    ['anthropic', 'anthropic'],
  ] as const)('gives the %s provider for kind %s', (kind, name) => {
    expect(createProvider({ kind, baseUrl: '', model: 'm' }, createNodeHttpTransport())).toMatchObject({ name, model: 'm' });
  });

  describe('when the kind is unknown (hand-edited settings)', () => {
    it('refuses it', () => {
      const settings = { kind: 'gemini', baseUrl: '', model: 'm' } as unknown as ProviderSettings;
      const error = thrownBy(() => createProvider(settings, createNodeHttpTransport()), InvalidArgumentError);
      expect(error.data).toMatchObject({ argument: 'settings.kind', received: '"gemini"' });
    });
  });
});
