import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../../../src/core/util/KeyedMutex';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedMutex', () => {
  describe('run', () => {
    it('runs tasks on one key one at a time, in order', async () => {
      const mutex = new KeyedMutex();
      const log: string[] = [];
      const task = (name: string) => async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
      };
      await Promise.all([mutex.run('k', task('a')), mutex.run('k', task('b'))]);
      expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
    });

    it('runs tasks on different keys concurrently', async () => {
      const mutex = new KeyedMutex();
      const log: string[] = [];
      const task = (name: string) => async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
      };
      await Promise.all([mutex.run('x', task('a')), mutex.run('y', task('b'))]);
      expect(log.slice(0, 2)).toEqual(['start a', 'start b']);
    });

    it('keeps going after a task fails', async () => {
      const mutex = new KeyedMutex();
      const failed = mutex.run('k', () => Promise.reject(new Error('boom')));
      const next = mutex.run('k', () => Promise.resolve(42));
      await expect(failed).rejects.toThrow('boom');
      await expect(next).resolves.toBe(42);
    });
  });
});
