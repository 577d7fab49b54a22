// Recursa on a phone-shaped runtime, end to end: the BUILT main.js in headless Chromium over the
// fake mobile `obsidian` module (files in IndexedDB, no Node, `requestUrl` without streaming), a
// generated vault of 1,000 notes, the scripted model server. After each step the in-page vault is
// copied to a folder on the host and the `git` CLI judges it: `git fsck --full` clean, commits as
// expected. The steps run in order and build on each other; the last syncs with `git http-backend`
// through the plugin's "Sync now" (isomorphic-git over `requestUrl`) and the remote is judged too.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer } from '../e2e/harness/chatVault';
import { gitCli } from '../helpers/gitCli';
import { gitAsync, startGitHttpServer, type GitHttpServer } from '../helpers/gitHttpServer';
import { generateVault } from '../helpers/mobile/generatedVault';
import { MobileHarness, pluginSettingsFile } from '../helpers/mobile/mobileHarness';
import { lastUserOf, startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir } from '../helpers/tempVault';

const NOTES = 1000;
const NEW_NOTE = 'Inbox/Phone launch.md';
const MEMORY = 'The user reviews the phone launch with Ada every Thursday.';
/** The sync remote's account, and the token the phone keeps in its keychain. */
const REMOTE_AUTH = { username: 'ada', password: 'tok-4b8e2c9d1f7a3e5b' };
const TOKEN_SECRET = 'recursa-sync-token';
const LAPTOP_NOTE = 'Inbox/From the laptop.md';
const PHONE_NOTE = 'Inbox/Phone follow-up.md';

describe('Recursa on a phone-shaped runtime (built main.js, files in IndexedDB, no Node)', () => {
  let source: { dir: string; remove: () => Promise<void> };
  let exported: { dir: string; remove: () => Promise<void> };
  let server: ModelServer;
  let remoteRoot: { dir: string; remove: () => Promise<void> };
  let gitServer: GitHttpServer;
  let remote: { url: string; dir: string };
  let harness: MobileHarness;
  let notes: string[];
  /** A generated note the chat run changes. */
  let target: string;
  let targetText: string;

  /** Copies the page's vault out and checks it with the `git` CLI; returns the commit subjects, newest first. */
  const exportAndCheck = async (): Promise<string[]> => {
    await harness.exportTo(exported.dir);
    gitCli(exported.dir, 'fsck', '--full', '--strict', '--no-dangling');
    return gitCli(exported.dir, 'log', '--format=%s').trim().split('\n');
  };
  const git = (...args: string[]): string => gitCli(exported.dir, ...args);

  const send = async (text: string): Promise<void> => {
    const input = harness.page.getByRole('textbox', { name: 'Message to the agent' });
    await input.fill(text);
    await input.press('Enter');
  };
  /** The text of the n-th agent reply (1-based), once it is there. */
  const reply = async (n: number): Promise<string> => {
    const replies = harness.page.locator('.recursa-message-agent');
    await expect.poll(() => replies.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(n);
    return (await replies.nth(n - 1).textContent()) ?? '';
  };
  /** The result shown under the last code block. */
  const lastCodeResult = async (): Promise<string> => {
    const code = harness.page.locator('details.recursa-code').last();
    await code.locator('summary').click();
    return (await code.locator('.recursa-code-result').textContent()) ?? '';
  };

  beforeAll(async () => {
    source = await makeTempDir('recursa-mobile-source-');
    exported = await makeTempDir('recursa-mobile-export-');
    notes = (await generateVault(source.dir, NOTES)).files.sort();
    target = notes[0] ?? '';
    targetText = await readFile(join(source.dir, target), 'utf8');
    server = await startModelServer();
    remoteRoot = await makeTempDir('recursa-mobile-remote-');
    gitServer = await startGitHttpServer({ root: join(remoteRoot.dir, 'remote'), auth: REMOTE_AUTH });
    remote = await gitServer.createRepo('phone-notes');
    harness = await MobileHarness.open();
    expect(await harness.seedFromFolder(source.dir)).toBe(NOTES + 1);
    const settings = pluginSettingsFile(`${server.url}/v1`, { sync: { remoteUrl: remote.url, username: REMOTE_AUTH.username, tokenSecret: TOKEN_SECRET } });
    await harness.seedFiles({ [settings.path]: settings.text });
    await harness.start();
    await harness.call((mobile, token) => mobile.setSecret(token.id, token.value), { id: TOKEN_SECRET, value: REMOTE_AUTH.password });
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await server?.close();
    await gitServer?.stop();
    await remoteRoot?.remove();
    await source?.remove();
    await exported?.remove();
  });

  it('takes the first snapshot of the 1,000 notes', async () => {
    await harness.loadPlugin();
    await harness.call((mobile) => mobile.whenSnapshotDone(), null);
    const subjects = await exportAndCheck();
    expect(subjects).toHaveLength(1);
    const tracked = git('ls-files').trim().split('\n');
    expect(tracked.filter((path) => path.endsWith('.md')).sort()).toEqual(notes);
    // The plugin's folder (which holds its settings) is never committed.
    expect(tracked.some((path) => path.startsWith('.obsidian/plugins/'))).toBe(false);
    expect(git('show', `HEAD:${target}`)).toBe(targetText);
    expect(git('status', '--porcelain', '--', ...new Set(notes.map((path) => path.split('/')[0] ?? path)))).toBe('');
    expect(harness.pageErrors).toEqual([]);
  }, 120_000);

  it('runs a chat request that writes two notes and commits them (no streaming)', async () => {
    const code = `const text = await mem.readFile(${JSON.stringify(target)});
await mem.updateFile(${JSON.stringify(target)}, text, text + '\\n- [ ] Review the phone launch\\n');
await mem.writeFile(${JSON.stringify(NEW_NOTE)}, '# Phone launch\\n\\nWritten on a phone by the quokka agent.\\n');
return 'written';`;
    server.script([{ text: answer({ think: 'Adding the task and the note.', code }) }, { text: answer({ reply: 'Added the task and the launch note.' }) }]);
    // The ribbon is hidden on a phone: the chat opens by its command.
    expect(await harness.runCommand('recursa:open-chat')).toBe(true);
    await send('Plan the phone launch');
    expect(await reply(1)).toContain('Added the task and the launch note.');
    // requestUrl cannot stream: the plugin asked for whole answers.
    expect(server.requests.map((request) => (request.body as { stream?: unknown }).stream)).toEqual([false, false]);
    await harness.call((mobile) => mobile.whenGitIdle(), null);
    const subjects = await exportAndCheck();
    expect(subjects).toHaveLength(2);
    expect(subjects[0]).toContain('Recursa: Plan the phone launch');
    expect(git('show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual([NEW_NOTE, target].sort());
    expect(git('show', `HEAD:${target}`)).toBe(`${targetText}\n- [ ] Review the phone launch\n`);
    expect(git('show', `HEAD:${NEW_NOTE}`)).toContain('quokka agent');
    expect(git('status', '--porcelain', '--', target, NEW_NOTE)).toBe('');
  }, 60_000);

  it('shows the diff of the run', async () => {
    const changes = harness.page.locator('.recursa-changes');
    const chipLabels = (): Promise<(string | null)[]> => changes.locator('.recursa-file-chip').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('aria-label')));
    await expect.poll(chipLabels).toEqual(expect.arrayContaining([target, NEW_NOTE].map((path) => `Show the changes to ${path}`)));
    await changes.getByRole('button', { name: `Show the changes to ${target}` }).click();
    const diff = harness.page.locator('.recursa-diff');
    await expect.poll(() => diff.locator('.recursa-diff-added').allTextContents()).toContain('+- [ ] Review the phone launch');
    await harness.page.keyboard.press('Escape');
    expect(await harness.page.locator('.modal-container').count()).toBe(0);
  });

  it('reverts the run', async () => {
    const changes = harness.page.locator('.recursa-changes');
    await changes.getByRole('button', { name: 'Revert the changes of this run' }).click();
    await harness.page.locator('.modal').getByRole('button', { name: 'Revert' }).click();
    await expect.poll(() => changes.getAttribute('class'), { timeout: 30_000 }).toContain('is-reverted');
    await harness.call((mobile) => mobile.whenGitIdle(), null);
    const subjects = await exportAndCheck();
    expect(subjects).toHaveLength(3);
    expect(subjects[0]).toBe('Revert "Recursa: Plan the phone launch"');
    expect(git('show', `HEAD:${target}`)).toBe(targetText);
    expect(await readFile(join(exported.dir, target), 'utf8')).toBe(targetText);
    expect(git('ls-files', '--', NEW_NOTE)).toBe('');
    expect(git('status', '--porcelain', '--', target, NEW_NOTE)).toBe('');
  }, 60_000);

  it('remembers, and recalls the memory in a later request', async () => {
    server.script([
      { text: answer({ code: `return await mem.remember(${JSON.stringify(MEMORY)}, ['launch']);` }) },
      { text: answer({ reply: 'I will remember that.' }) },
    ]);
    await send('Remember that I review the launch with Ada on Thursdays');
    expect(await reply(2)).toContain('I will remember that.');
    await harness.call((mobile) => mobile.whenGitIdle(), null);
    const subjects = await exportAndCheck();
    expect(subjects).toHaveLength(4);
    const [memoryPath] = git('show', '--name-only', '--format=', 'HEAD').trim().split('\n');
    expect(git('show', `HEAD:${memoryPath ?? ''}`)).toContain(MEMORY);

    server.script([
      { text: answer({ code: `const { memories } = await mem.recall({ query: 'launch review Thursday' });\nreturn memories.map((m) => m.content);` }) },
      { text: answer({ reply: 'You review it with Ada on Thursdays.' }) },
    ]);
    await send('When do I review the launch?');
    expect(await reply(3)).toContain('Ada on Thursdays');
    expect(await lastCodeResult()).toContain(MEMORY);
    expect(await exportAndCheck()).toHaveLength(4);
  }, 60_000);

  it('searches the 1,000 notes', async () => {
    const title = (target.split('/').pop() ?? '').replace(/\.md$/, '');
    server.script([
      { text: answer({ code: `const hits = await mem.search(${JSON.stringify(title)}, { limit: 5 });\nreturn hits.map((hit) => hit.path);` }) },
      { text: answer({ reply: 'Found it.' }) },
    ]);
    await send(`Find my note on ${title}`);
    expect(await reply(4)).toContain('Found it.');
    expect(await lastCodeResult()).toContain(target);
    expect(lastUserOf(server.requests.at(-1))).toContain(target);
    expect(await exportAndCheck()).toHaveLength(4);
  }, 60_000);

  it('ends an endless loop at the time limit and memory bombs in a RangeError; the run ends cleanly and the page lives on', async () => {
    const pageBefore = await harness.page.evaluate(() => performance.timeOrigin);
    server.script([
      { text: answer({ think: 'Looping.', code: 'let n = 0;\nwhile (true) { n++; }' }) },
      { text: answer({ think: 'Doubling a string.', code: "let s = 'x';\nconst keep: string[] = [];\nfor (;;) { s = s + s; keep.push(s); }" }) },
      {
        text: answer({
          think: 'Allocating too much at once.',
          code: "const found: string[] = [];\nfor (const make of [() => new Array(2 ** 32), () => new ArrayBuffer(2 ** 53), () => 'x'.repeat(2 ** 30)]) {\n  try { make(); } catch (e) { found.push(e.name); }\n}\nreturn found;",
        }),
      },
      { text: answer({ reply: 'Those did not work.' }) },
    ]);
    const started = Date.now();
    await send('Try the hard things');
    expect(await reply(5)).toContain('Those did not work.');
    // The per-code time limit is 10 s; the run went on after it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    const fedBack = server.requests.slice(-3).map((request) => lastUserOf(request));
    expect(fedBack[0]).toMatch(/time limit/i);
    expect(fedBack[1]).toContain('Invalid string length');
    expect(fedBack[2]).toContain('RangeError');
    expect(harness.hasCrashed).toBe(false);
    expect(await harness.page.evaluate(() => performance.timeOrigin)).toBe(pageBefore);

    // The next request runs code in a new worker.
    server.script([{ text: answer({ code: 'return 6 * 7;' }) }, { text: answer({ reply: 'It is 42.' }) }]);
    await send('What is six times seven?');
    expect(await reply(6)).toContain('It is 42.');
    expect(await lastCodeResult()).toContain('42');
    expect(await exportAndCheck()).toHaveLength(4);
    expect(harness.pageErrors).toEqual([]);
  }, 90_000);

  it('syncs with a git http-backend remote through "Sync now" over requestUrl, then merges what another device pushed', async () => {
    const syncNow = async (): Promise<Record<string, unknown>> => {
      expect(await harness.runCommand('recursa:sync-now')).toBe(true);
      const outcome = await harness.call((mobile) => mobile.whenSyncDone(), null);
      if (!outcome.ok) throw new Error(`the sync failed: ${outcome.error}`);
      return outcome.result;
    };
    const remoteGit = (...args: string[]): string => gitCli(remote.dir, ...args);

    // The first sync pushes the phone's whole history to the empty remote.
    expect(await syncNow()).toMatchObject({ fetched: 0, pushed: 4, merged: false, conflicts: [] });
    await expect.poll(() => harness.page.locator('.recursa-sync-status').textContent()).toContain('Synced just now');
    const subjects = await exportAndCheck();
    expect(subjects).toHaveLength(4);
    remoteGit('fsck', '--full', '--strict', '--no-dangling');
    expect(remoteGit('rev-parse', 'main').trim()).toBe(git('rev-parse', 'HEAD').trim());
    expect(remoteGit('log', '--format=%s', 'main').trim().split('\n')).toEqual(subjects);
    // The phone knows where the remote's branch stands (what ahead and behind are counted from).
    expect(git('rev-parse', 'refs/remotes/origin/main').trim()).toBe(git('rev-parse', 'HEAD').trim());
    // The pack went up in one request body (requestUrl cannot stream), with the token from the keychain.
    expect(gitServer.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/git-receive-pack'))).toHaveLength(1);
    expect(await readFile(join(exported.dir, '.git', 'config'), 'utf8')).not.toContain(REMOTE_AUTH.password);

    // Another device clones over HTTP, gets the same notes, and pushes a note of its own.
    const laptop = join(remoteRoot.dir, 'laptop');
    await gitAsync(remoteRoot.dir, ['clone', '-q', remote.url, laptop], REMOTE_AUTH);
    expect((await gitAsync(laptop, ['ls-files'])).trim().split('\n')).toEqual(git('ls-files').trim().split('\n'));
    await mkdir(join(laptop, 'Inbox'), { recursive: true });
    await writeFile(join(laptop, LAPTOP_NOTE), '# From the laptop\n\nWritten on the laptop.\n');
    await gitAsync(laptop, ['add', '--', LAPTOP_NOTE]);
    await gitAsync(laptop, ['commit', '-q', '-m', 'Add a note from the laptop']);
    await gitAsync(laptop, ['push', '-q', 'origin', 'main'], REMOTE_AUTH);

    // Meanwhile the agent commits on the phone, so the histories diverge.
    server.script([{ text: answer({ code: `await mem.writeFile(${JSON.stringify(PHONE_NOTE)}, '# Follow-up\\n\\nWritten on the phone.\\n');\nreturn 'ok';` }) }, { text: answer({ reply: 'Wrote the follow-up.' }) }]);
    await send('Write the follow-up note');
    expect(await reply(7)).toContain('Wrote the follow-up.');
    await harness.call((mobile) => mobile.whenGitIdle(), null);

    // The second sync fetches the laptop's commit, merges (both parents kept) and pushes the merge.
    expect(await syncNow()).toMatchObject({ fetched: 1, merged: true, conflicts: [], copies: [] });
    await harness.call((mobile) => mobile.whenGitIdle(), null);
    const merged = await exportAndCheck();
    expect(merged.slice(1)).toEqual(expect.arrayContaining(['Add a note from the laptop', 'Recursa: Write the follow-up note', ...subjects]));
    expect(git('rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ')).toHaveLength(3);
    expect(await readFile(join(exported.dir, LAPTOP_NOTE), 'utf8')).toBe('# From the laptop\n\nWritten on the laptop.\n');
    expect(await harness.call((mobile, { name, path }) => mobile.readStoredText(name, path), { name: harness.vaultName, path: LAPTOP_NOTE })).toContain('Written on the laptop.');
    expect(git('status', '--porcelain', '--', LAPTOP_NOTE, PHONE_NOTE)).toBe('');
    remoteGit('fsck', '--full', '--strict', '--no-dangling');
    expect(remoteGit('rev-parse', 'main').trim()).toBe(git('rev-parse', 'HEAD').trim());
    expect(remoteGit('ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual(expect.arrayContaining([LAPTOP_NOTE, PHONE_NOTE, target]));
    expect(harness.pageErrors).toEqual([]);
  }, 180_000);
});
