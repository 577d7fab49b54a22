import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, secretsInUrl } from '../../../../src/core/text/redactSecrets';

describe('redactSecrets', () => {
  describe('credentials in URLs', () => {
    it.each([
      ['http://user:sekret@localhost:8080/v1', 'http://***@localhost:8080/v1'],
      ['https://USER:Sekret@Example.COM/v1/chat', 'https://***@Example.COM/v1/chat'],
      ['https://sk-only-a-token@api.example.com', 'https://***@api.example.com'],
      ['http://user:p%40ss%3Aword@host/v1', 'http://***@host/v1'],
      ['http://user:p@ss@host/v1', 'http://***@host/v1'],
      ['http://user:sekret@[::1]:11434/v1', 'http://***@[::1]:11434/v1'],
      ['http://user:sekret@[2001:db8::7]/v1', 'http://***@[2001:db8::7]/v1'],
      ['HTTP://u:p@host', 'HTTP://***@host'],
      ['git+https://u:tok@host/repo.git', 'git+https://***@host/repo.git'],
      ['ws://u:p@host/socket?x=1', 'ws://***@host/socket?x=1'],
      ['http://user:sekret@host', 'http://***@host'],
    ])('%s', (input, expected) => {
      expect(redactSecrets(input)).toBe(expected);
    });

    it('redacts every URL in a message, and leaves what is no secret alone', () => {
      const message = 'Could not reach http://a:one@h1/v1 (then tried "https://b:two@h2:443/x?y=1" and http://plain.host/v1). Mail bob@example.com.';
      expect(redactSecrets(message)).toBe('Could not reach http://***@h1/v1 (then tried "https://***@h2:443/x?y=1" and http://plain.host/v1). Mail bob@example.com.');
    });

    it('does not take an @ in the path or query for credentials', () => {
      expect(redactSecrets('http://host/users/@me?who=a@b')).toBe('http://host/users/@me?who=a@b');
    });
  });

  describe('secret query parameters', () => {
    it.each([
      ['https://h/v1?api_key=abc123', 'https://h/v1?api_key=***'],
      ['https://h/v1?key=AIzaXYZ&alt=json', 'https://h/v1?key=***&alt=json'],
      ['https://h/v1?alt=json&token=t0k3n#frag', 'https://h/v1?alt=json&token=***#frag'],
      ['https://h/v1?Access_Token=x&apiKey=y&x-api-key=z', 'https://h/v1?Access_Token=***&apiKey=***&x-api-key=***'],
      ['https://h/v1?client_secret=s&sig=abc&password=pw', 'https://h/v1?client_secret=***&sig=***&password=***'],
      ['https://h/v1?api%5Fkey=abc', 'https://h/v1?api%5Fkey=***'],
      ['https://h/cb#access_token=abc&state=1', 'https://h/cb#access_token=***&state=1'],
    ])('%s', (input, expected) => {
      expect(redactSecrets(input)).toBe(expected);
    });

    it('keeps parameters that only look alike', () => {
      expect(redactSecrets('https://h/v1?monkey=1&sort_key=2&tokens=3&model=gpt')).toBe('https://h/v1?monkey=1&sort_key=2&tokens=3&model=gpt');
    });
  });

  describe('header values', () => {
    it.each([
      ['Authorization: Bearer sk-abc123def456', 'Authorization: Bearer ***'],
      ['authorization=Basic dXNlcjpzZWtyZXQ=', 'authorization=Basic ***'],
      ['{"authorization":"Bearer sk-abc123"}', '{"authorization":"Bearer ***"}'],
      ['Proxy-Authorization: Digest abc', 'Proxy-Authorization: Digest ***'],
      ['x-api-key: sk-ant-123456', 'x-api-key: ***'],
      ['{"x-api-key": "sk-ant-123456", "model": "m"}', '{"x-api-key": "***", "model": "m"}'],
      ['api_key=sk-1234&x=1', 'api_key=***&x=1'],
      ['sent with bearer sk-proj-1234567890 to the server', 'sent with bearer *** to the server'],
    ])('%s', (input, expected) => {
      expect(redactSecrets(input)).toBe(expected);
    });

    it('leaves prose about keys and headers alone', () => {
      const prose = 'The API key was refused (401). Check the Authorization header and use bearer authentication or basic authentication.';
      expect(redactSecrets(prose)).toBe(prose);
    });
  });

  describe('known secrets', () => {
    it('removes each occurrence of a given secret, also URL-encoded, longest first', () => {
      const key = 'sk-te$t/key+1';
      const text = `Incorrect API key provided: ${key}. Again: ${key}; encoded ${encodeURIComponent(key)}; longer sk-te$t/key+1-extra`;
      expect(redactSecrets(text, [key, 'sk-te$t/key+1-extra'])).toBe(`Incorrect API key provided: ${REDACTED}. Again: ${REDACTED}; encoded ${REDACTED}; longer ${REDACTED}`);
    });

    it('ignores empty, missing and very short secrets', () => {
      expect(redactSecrets('a b abc', ['', null, undefined, 'ab', ' a '])).toBe('a b abc');
    });

    it('finds the password a server echoes on its own', () => {
      const url = 'http://user:s%C3%A9kret%40@host/v1?api_key=k3y-value';
      const echoed = 'denied for user with password sékret@ and key k3y-value';
      expect(redactSecrets(echoed, secretsInUrl(url))).toBe(`denied for ${REDACTED} with password ${REDACTED} and key ${REDACTED}`);
    });
  });

  describe('secretsInUrl', () => {
    it('gives the user name and password, raw and decoded, and secret parameter values', () => {
      expect(secretsInUrl('http://alice:p%40ss@host/v1?token=tok-1&model=m')).toEqual(['alice', 'p%40ss', 'alice', 'p@ss', 'tok-1']);
    });

    it('gives nothing for a URL without secrets, or for text that is no URL', () => {
      expect(secretsInUrl('http://localhost:11434/v1')).toEqual([]);
      expect(secretsInUrl('not a url')).toEqual([]);
      expect(secretsInUrl(undefined)).toEqual([]);
    });
  });
});
