import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  agentCommitMessage,
  parseCommit,
  readAgentTrailer,
  safeIdentity,
  serializeCommit,
  type CommitObject,
} from '../../../../src/core/git/commitObjects';
import { EMPTY_TREE_OID, hashObject } from '../../../../src/core/git/gitObjects';
import { parseTree, serializeTree, type TreeEntry } from '../../../../src/core/git/treeObjects';
import { gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

const BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

describe('git object formats', () => {
  const temp = useTempDir();

  it('serializes trees in git order, with the ids git mktree gives', async () => {
    gitCli(temp.dir, 'init', '-q');
    const entries: TreeEntry[] = [
      { mode: '100644', name: 'a.md', oid: BLOB },
      { mode: '40000', name: 'a', oid: EMPTY_TREE_OID },
      { mode: '100644', name: 'a-b', oid: BLOB },
      { mode: '100755', name: 'Zeta', oid: BLOB },
      { mode: '100644', name: 'é.md', oid: BLOB },
    ];
    const input = entries.map((e) => `${e.mode === '40000' ? '040000 tree' : `${e.mode} blob`} ${e.oid}\t${e.name}`).join('\n');
    const cli = execFileSync('git', ['-C', temp.dir, 'mktree', '--missing'], { input: `${input}\n`, encoding: 'utf8' }).trim();
    const content = serializeTree(entries);
    expect(await hashObject('tree', content)).toBe(cli);
    expect(parseTree(content).map((entry) => entry.name)).toEqual(['Zeta', 'a-b', 'a.md', 'a', 'é.md']);
  });

  it('serializes commits byte for byte as git does, time zones included', async () => {
    gitCli(temp.dir, 'init', '-q');
    const commit: CommitObject = {
      tree: EMPTY_TREE_OID,
      parents: [],
      author: { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000, timezoneOffset: -330 },
      committer: { name: 'Recursa', email: 'recursa@localhost', timestamp: 1_700_000_060, timezoneOffset: 60 },
      message: agentCommitMessage('  Subject line\n\nBody.  ', 'run-42'),
    };
    const content = serializeCommit(commit);
    const oid = execFileSync('git', ['-C', temp.dir, 'hash-object', '-t', 'commit', '-w', '--stdin'], { input: content, encoding: 'utf8' }).trim();
    expect(await hashObject('commit', content)).toBe(oid);
    expect(gitCli(temp.dir, 'log', '-1', '--format=%an|%ad|%cn|%cd|%(trailers:key=Recursa-Run,valueonly)', '--date=iso', oid).trim()).toBe(
      'Ada|2023-11-14 16:43:20 -0530|Recursa|2023-11-14 23:14:20 +0100|run-42',
    );
    expect(parseCommit(content)).toEqual(commit);
  });

  it('reads the run trailer back, and only as the last paragraph', () => {
    expect(readAgentTrailer(agentCommitMessage('Fix links', 'run-1'))).toEqual({ message: 'Fix links', run: 'run-1' });
    expect(readAgentTrailer('Quote: Recursa-Run: x\n\nmore\n')).toEqual({ message: 'Quote: Recursa-Run: x\n\nmore', run: null });
    expect(readAgentTrailer('User commit\n')).toEqual({ message: 'User commit', run: null });
  });

  it('cleans identities so a setting cannot corrupt a commit', () => {
    expect(safeIdentity({ name: 'Eve <evil>\nx', email: 'a@b>\n' })).toEqual({ name: 'Eve evilx', email: 'a@b' });
    expect(safeIdentity({ name: ' ', email: '' })).toEqual({ name: 'Recursa', email: 'recursa@localhost' });
  });
});
