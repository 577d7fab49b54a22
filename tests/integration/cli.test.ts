import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import { useTempDir } from '../helpers/tempVault';

const CLI = join(process.cwd(), 'dist/cli.mjs');

function recursa(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('recursa run (dist/cli.mjs)', () => {
  const temp = useTempDir();

  it('is the package bin', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { bin?: Record<string, string> };
    expect(pkg.bin).toEqual({ recursa: 'dist/cli.mjs' });
    expect((await readFile(CLI, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('runs a file against the vault and prints the result as JSON, exit 0', async () => {
    await writeFile(join(temp.dir, 'a.md'), '# A\n');
    await writeFile(join(temp.dir, 'script.ts'), `const files: string[] = await mem.listFiles();\nconsole.log('found', files.length);\nreturn files;`);
    const { status, stdout } = recursa(['run', '--vault', temp.dir, join(temp.dir, 'script.ts')]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, value: ['a.md', 'script.ts'], logs: [{ level: 'log', text: 'found 2' }], error: null, memCalls: 1, commit: null });
    expect(existsSync(join(temp.dir, '.git'))).toBe(false);
  });

  it('reads standard input with "-" and commits the writes with --commit', () => {
    const code = `await mem.writeFile('Notes/new.md', '# New\\n'); return 'done';`;
    const { status, stdout } = recursa(['run', '--vault', temp.dir, '--commit', 'Add a note from the CLI', '-'], code);
    expect(status).toBe(0);
    const result = JSON.parse(stdout) as { value: string; commit: string };
    expect(result.value).toBe('done');
    expect(gitCli(temp.dir, 'log', '--format=%H %s').trim().split('\n')[0]).toBe(`${result.commit} Add a note from the CLI`);
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
  });

  it('exits 1 when the code fails, still printing the result', () => {
    const { status, stdout } = recursa(['run', '--vault', temp.dir, '--time-limit', '500', '-'], 'while (true) {}');
    expect(status).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
  });

  it('exits 2 for bad arguments, with the usage of the command it was given', () => {
    for (const args of [[], ['run', 'x.ts'], ['run', '--vault', temp.dir], ['run', '--vault', temp.dir, '--time-limit', 'soon', '-'], ['run', '--vault', temp.dir, 'missing.ts'], ['run', '--bogus']]) {
      const { status, stdout, stderr } = recursa(args, '');
      expect(status, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('Usage: recursa run');
    }
  });

  it('answers an unknown command with a one-line hint, exit 2', () => {
    const { status, stdout, stderr } = recursa(['walk']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('recursa: unknown command "walk"\nRun "recursa --help" to see the commands.\n');
  });

  it('prints help and the version on standard output, exit 0', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    expect(recursa(['--version'])).toEqual({ status: 0, stdout: `recursa ${pkg.version}\n`, stderr: '' });
    for (const args of [['-h'], ['--help'], ['help']]) {
      const { status, stdout } = recursa(args);
      expect(status, args.join(' ')).toBe(0);
      for (const command of ['run', 'ask', 'remember', 'recall']) expect(stdout).toContain(`recursa ${command} --vault DIR`);
    }
    for (const args of [['help', 'ask'], ['ask', '--help'], ['ask', '-h']]) {
      const { status, stdout } = recursa(args);
      expect(status, args.join(' ')).toBe(0);
      expect(stdout.startsWith('Usage: recursa ask --vault DIR')).toBe(true);
      expect(stdout).toContain('--base-url URL');
      expect(stdout).not.toContain('--time-limit');
    }
    expect(recursa(['help', 'walk']).status).toBe(2);
  });

  it('fails after the arguments with one JSON error object and exit 1: a missing vault, a commit that cannot be made', async () => {
    const missing = recursa(['run', '--vault', join(temp.dir, 'nope'), '-'], 'return 1');
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: { code: 'NotFound' } });
    gitCli(temp.dir, 'init', '-q');
    await writeFile(join(temp.dir, '.git/index.lock'), '');
    const busy = recursa(['run', '--vault', temp.dir, '--commit', 'Add c', '-'], `await mem.writeFile('c.md', 'c');`);
    expect(busy.status).toBe(1);
    expect(JSON.parse(busy.stdout)).toMatchObject({ ok: false, error: { code: 'GitBusy' } });
    expect(busy.stderr).toContain('index.lock');
    expect(busy.stderr).not.toContain('Usage');
  });

  it('undoes what failing code changed in a vault with history, committing nothing', async () => {
    await writeFile(join(temp.dir, 'a.md'), '# A\n');
    gitCli(temp.dir, 'init', '-q');
    gitCli(temp.dir, 'add', '-A');
    gitCli(temp.dir, 'commit', '-q', '-m', 'Start');
    const code = `await mem.writeFile('a.md', '# changed\\n'); await mem.writeFile('new.md', 'x'); throw new Error('boom');`;
    const { status, stdout, stderr } = recursa(['run', '--vault', temp.dir, '--commit', 'Never', '-'], code);
    expect(status).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, commit: null, discarded: ['a.md', 'new.md'] });
    expect(stderr).toContain('its changes were undone: a.md, new.md');
    expect(await readFile(join(temp.dir, 'a.md'), 'utf8')).toBe('# A\n');
    expect(existsSync(join(temp.dir, 'new.md'))).toBe(false);
    expect(gitCli(temp.dir, 'log', '--format=%s').trim()).toBe('Start');
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
  });

  it('says on standard error which files it left uncommitted without --commit, and how to keep or undo them', () => {
    gitCli(temp.dir, 'init', '-q');
    const { status, stdout, stderr } = recursa(['run', '--vault', temp.dir, '-'], `await mem.writeFile('Notes/b.md', 'b'); await mem.writeFile('c.md', 'c');`);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, commit: null, uncommitted: ['Notes/b.md', 'c.md'] });
    expect(stderr).toContain('left them uncommitted (no --commit was given)');
    expect(stderr).toContain('  Notes/b.md\n  c.md\n');
    expect(stderr).toContain('--commit MESSAGE');
    expect(stderr).toContain('restore');
  });
});
