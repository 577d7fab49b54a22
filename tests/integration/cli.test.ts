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

  it('exits 2 with usage for bad arguments', () => {
    for (const args of [[], ['walk'], ['run', 'x.ts'], ['run', '--vault', temp.dir], ['run', '--vault', temp.dir, '--time-limit', 'soon', '-'], ['run', '--vault', temp.dir, 'missing.ts'], ['run', '--bogus']]) {
      const { status, stdout, stderr } = recursa(args, '');
      expect(status, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('Usage: recursa run');
    }
    expect(recursa(['run', '--vault', join(temp.dir, 'nope'), '-'], 'return 1').status).toBe(2);
  });
});
