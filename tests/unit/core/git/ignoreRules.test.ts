import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IgnoreRules } from '../../../../src/core/git/ignoreRules';
import { walkFiles } from '../../../../src/core/ports';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

const FILES = [
  'a.md', 'b.log', 'keep.log', 'build/out.md', 'build/keep.md', 'Notes/x.tmp', 'Notes/Sub/y.tmp', 'Notes/Sub/z.md',
  'Notes/local.md', 'deep/a/b/c.md', 'deep/a/b/skip.md', 'space dir/file one.md', '.obsidian/workspace.json', '.obsidian/app.json',
];

describe('IgnoreRules', () => {
  const temp = useTempDir();
  let port: NodeVaultPort;

  beforeEach(async () => {
    for (const file of FILES) {
      await mkdir(join(temp.dir, file, '..'), { recursive: true });
      await writeFile(join(temp.dir, file), 'x\n');
    }
    await writeFile(join(temp.dir, '.gitignore'), '*.log\n!keep.log\nbuild/\n/.obsidian/workspace.json\nspace dir/file one.md\n');
    await writeFile(join(temp.dir, 'Notes/.gitignore'), '*.tmp\n!Sub/y.tmp\nlocal.md\n');
    await writeFile(join(temp.dir, 'deep/a/.gitignore'), 'b/skip.md\n');
    gitCli(temp.dir, 'init', '-q');
    await mkdir(join(temp.dir, '.git/info'), { recursive: true });
    await writeFile(join(temp.dir, '.git/info/exclude'), 'deep/a/b/c.md\n');
    port = await NodeVaultPort.open(temp.dir, { watch: false });
  });
  afterEach(() => port.close());

  it('ignores exactly what git check-ignore ignores', async () => {
    const files = await walkFiles(port, '', (folder) => folder !== '.git');
    const rules = await IgnoreRules.load(port, files.filter((path) => path.endsWith('.gitignore')));
    const cli = new Set(gitCli(temp.dir, 'check-ignore', '--no-index', ...files).trim().split('\n').filter(Boolean));
    const ours = files.filter((path) => rules.isIgnored(path));
    expect(new Set(ours)).toEqual(cli);
    expect(ours.length).toBeGreaterThan(5);
  });

  it('always ignores the repository itself', () => {
    expect(IgnoreRules.none().isIgnored('.git/config')).toBe(true);
    expect(IgnoreRules.none().isIgnored('Notes/a.md')).toBe(false);
  });
});
