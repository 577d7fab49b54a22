// The plugin's shell in headless Chromium: what onload does (little) and what onunload undoes
// (everything), its commands and ribbon icon. Same harness as chat-view.test.ts.
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResourceCounts } from './harness/entry';
import { gitCli } from '../helpers/gitCli';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir } from '../helpers/tempVault';
import { openHarness, SCREENSHOTS, writePluginSettings, type HarnessPage } from './harness/chatHarness';
import { answer, NOTES, seedNotes } from './harness/chatVault';

describe('the plugin shell in a browser', () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  let server: ModelServer;
  let harness: HarnessPage | null = null;

  beforeEach(async () => {
    ({ dir, remove: removeDir } = await makeTempDir('recursa-shell-'));
    await seedNotes(dir);
    server = await startModelServer();
    await writePluginSettings(dir, `${server.url}/v1`);
  });

  afterEach(async () => {
    await harness?.close();
    harness = null;
    await server.close();
    await removeDir();
  });

  const counts = async (page: HarnessPage['page']): Promise<ResourceCounts> => {
    const result = await page.evaluate(() => window.recursaHarness?.counts());
    if (result === undefined) throw new Error('no harness');
    return result;
  };

  it('does no heavy work in onload: history, index and sandbox wait for the layout', async () => {
    harness = await openHarness({ vaultDir: dir, deferLayout: true });
    const { page } = harness;
    await page.evaluate(() => window.recursaHarness?.loadPlugin());
    await page.waitForTimeout(300);
    expect(existsSync(join(dir, '.git'))).toBe(false);
    expect(existsSync(join(dir, '.obsidian/plugins/recursa/graph-index.json'))).toBe(false);
    expect((await counts(page)).workers).toBe(0);
    // The chat opens before the vault is ready, and says so if asked; Retry works once it is.
    await page.getByRole('button', { name: 'Open agent chat' }).click();
    expect(await page.locator('[data-type="recursa-chat"]').count()).toBe(1);
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Hello');
    await page.getByRole('textbox', { name: 'Message to the agent' }).press('Enter');
    expect(await page.locator('.recursa-run-error-text').textContent()).toBe('Recursa is still opening this vault. Try again in a moment.');
    expect(server.requests.length).toBe(0);

    await page.evaluate(async () => {
      window.recursaHarness?.setLayoutReady();
      await window.recursaHarness?.waitForCore();
    });
    server.script([{ text: answer({ reply: 'Hello there.' }) }]);
    await page.getByRole('button', { name: 'Retry this request' }).click();
    await expect.poll(() => page.locator('.recursa-message-agent').textContent(), { timeout: 15_000 }).toBe('Hello there.');
    expect(await page.locator('.recursa-message-user').allTextContents()).toEqual(['Hello']);
    await expect.poll(() => existsSync(join(dir, '.obsidian/plugins/recursa/graph-index.json')), { timeout: 10_000 }).toBe(true);
    const log = (): string => {
      try {
        return gitCli(dir, 'log', '--format=%s').trim();
      } catch {
        return ''; // No commit yet.
      }
    };
    await expect.poll(log, { timeout: 10_000 }).toBe('Snapshot of the vault when Recursa started keeping its history');
  });

  it('leaks no workers, timers, listeners, commands or DOM nodes over 20 loads and unloads', async () => {
    harness = await openHarness({ vaultDir: dir });
    const { page } = harness;
    const before = await counts(page);
    for (let round = 0; round < 20; round++) {
      await page.evaluate(async () => {
        await window.recursaHarness?.loadPlugin();
        await window.recursaHarness?.waitForCore();
        // Start the sandbox worker (it starts on first use) and open the chat.
        await window.recursaHarness?.runSandbox('return 1 + 1');
        window.recursaHarness?.runCommand('recursa:open-chat');
      });
      if (round === 0) {
        const loaded = await counts(page);
        expect(loaded.workers).toBe(1);
        expect(loaded.intervals).toBeGreaterThan(before.intervals);
        expect(loaded.vaultListeners).toBeGreaterThan(before.vaultListeners);
        expect(loaded.commands).toBe(6);
        expect(loaded.domNodes).toBeGreaterThan(before.domNodes);
        expect(await page.locator('[data-type="recursa-chat"]').count()).toBe(1);
      }
      await page.evaluate(() => window.recursaHarness?.unloadPlugin());
    }
    await page.waitForTimeout(200);
    const after = await counts(page);
    // A notice left on screen would count as leaked nodes: name it, so a failure says which.
    const notices = await page.locator('.notice-message').allTextContents();
    expect({ ...after, notices }).toEqual({ ...before, notices: [] });
    expect(await page.locator('[data-type="recursa-chat"]').count()).toBe(0);
    expect(await page.locator('.side-dock-ribbon-action').count()).toBe(0);
    expect(harness.pageErrors).toEqual([]);
  });

  it('registers its commands in sentence case, without default hotkeys', async () => {
    harness = await openHarness({ vaultDir: dir });
    const { page } = harness;
    await page.evaluate(() => window.recursaHarness?.loadPlugin());
    const commands = await page.evaluate(() => window.recursaHarness?.commandList());
    expect(commands).toEqual([
      { id: 'recursa:open-chat', name: 'Open chat', hotkeys: 0 },
      { id: 'recursa:ask-about-current-note', name: 'Ask about the current note', hotkeys: 0 },
      { id: 'recursa:undo-last-agent-change', name: 'Undo the last agent change', hotkeys: 0 },
      { id: 'recursa:show-agent-history', name: 'Show agent history', hotkeys: 0 },
      { id: 'recursa:rebuild-search-index', name: 'Rebuild the search index', hotkeys: 0 },
      { id: 'recursa:sync-now', name: 'Sync now', hotkeys: 0 },
    ]);
    for (const command of commands ?? []) expect(command.name).toMatch(/^[A-Z][^A-Z]*$/);
  });

  it('asks about the current note: the chat opens with the note as context', async () => {
    harness = await openHarness({ vaultDir: dir });
    const { page } = harness;
    await page.evaluate(async () => {
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    });
    expect(await page.evaluate(() => window.recursaHarness?.runCommand('recursa:ask-about-current-note'))).toBe(false);
    await page.evaluate(() => window.recursaHarness?.openNote('Inbox.md'));
    expect(await page.evaluate(() => window.recursaHarness?.runCommand('recursa:ask-about-current-note'))).toBe(true);
    const chip = page.locator('.recursa-context .recursa-context-chip');
    await expect.poll(() => chip.locator('.recursa-context-name').textContent()).toBe('Inbox');
    expect(await chip.getAttribute('title')).toBe('Inbox.md');
    await expect.poll(() => chip.locator('.recursa-context-tokens').textContent()).toMatch(/^\d+ tokens?$/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message to the agent');
    server.script([{ text: answer({ reply: 'It says to call Sam.' }) }]);
    await page.keyboard.type('What does it say?');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.recursa-message-agent').textContent(), { timeout: 15_000 }).toBe('It says to call Sam.');
    const body = server.requests[0]?.body as { messages: { role: string; content: string }[] };
    // The model gets the note's path and text with the request; the chat shows what the person typed.
    const sent = body.messages.at(-1)?.content ?? '';
    expect(sent).toContain('\n- Inbox.md\n');
    expect(sent).toContain(`<note path="Inbox.md">\n${await readFile(join(dir, 'Inbox.md'), 'utf8')}\n</note>`);
    expect(sent.endsWith('\n\nWhat does it say?')).toBe(true);
    expect(await page.locator('.recursa-message-user .recursa-message-text').textContent()).toBe('What does it say?');
    expect(await page.locator('.recursa-message-user .recursa-context-chip').textContent()).toBe('Inbox');
    // The chip went with the request; the active note can be attached again with one click.
    expect(await chip.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Attach the active note, Inbox' }).count()).toBe(1);
  });

  it('undoes the last agent change after a confirmation', async () => {
    harness = await openHarness({ vaultDir: dir });
    const { page } = harness;
    await page.evaluate(async () => {
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    });
    server.script([
      { text: answer({ think: 'Writing.', code: "await mem.writeFile('Inbox.md', 'Called Sam.\\n'); return 'ok';" }) },
      { text: answer({ reply: 'Done.' }) },
    ]);
    await page.getByRole('button', { name: 'Open agent chat' }).click();
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Mark the call as done');
    await page.getByRole('textbox', { name: 'Message to the agent' }).press('Enter');
    await expect.poll(() => page.locator('.recursa-changes').count(), { timeout: 15_000 }).toBe(1);
    expect(await readFile(join(dir, 'Inbox.md'), 'utf8')).toBe('Called Sam.\n');

    await page.evaluate(() => window.recursaHarness?.runCommand('recursa:undo-last-agent-change'));
    await expect.poll(() => page.locator('.modal-title').textContent()).toBe('Undo the last agent change?');
    await page.screenshot({ path: join(SCREENSHOTS, 'command-undo-light.png') });
    await page.locator('.modal').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => readFile(join(dir, 'Inbox.md'), 'utf8')).toBe(NOTES['Inbox.md']);
    await expect.poll(() => gitCli(dir, 'log', '-1', '--format=%s').trim()).toBe('Revert "Recursa: Mark the call as done"');
    await expect.poll(() => page.locator('.notice').allTextContents()).toContain('Recursa: undid "Recursa: Mark the call as done".');
    expect(gitCli(dir, 'status', '--porcelain', '--', 'Inbox.md')).toBe('');
  });

  it('shows the agent history, and rebuilds the search index on request', async () => {
    harness = await openHarness({ vaultDir: dir });
    const { page } = harness;
    await page.evaluate(async () => {
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    });
    await page.evaluate(() => window.recursaHarness?.runCommand('recursa:show-agent-history'));
    await expect.poll(() => page.locator('.workspace-leaf-content[data-type="recursa-history"]').count()).toBe(1);

    const cache = join(dir, '.obsidian/plugins/recursa/graph-index.json');
    await expect.poll(() => existsSync(cache), { timeout: 10_000 }).toBe(true);
    await writeFile(cache, 'not an index');
    await writeFile(join(dir, 'Later.md'), 'Quarterly planning with Sam.\n');
    await page.evaluate(() => window.recursaHarness?.runCommand('recursa:rebuild-search-index'));
    await expect.poll(() => page.locator('.notice').allTextContents(), { timeout: 10_000 }).toContain('Recursa: the search index is rebuilt.');
    // A small header naming its parts, which hold the notes.
    const header = JSON.parse(await readFile(cache, 'utf8')) as { parts: number; generation: string };
    expect(header).toMatchObject({ parts: 1 });
    expect((await stat(join(dir, `.obsidian/plugins/recursa/graph-index.${header.generation}.0.jsonl`))).size).toBeGreaterThan(100);
    // The new index serves the agent's `mem`.
    expect(await page.evaluate(() => window.recursaHarness?.runSandbox("return await mem.searchGlobal('Friday')"))).toEqual(['Projects/Alpha.md']);
  });

  it('applies a folder made protected in the settings tab to the agent without restarting its sandbox', async () => {
    harness = await openHarness({ vaultDir: dir });
    const { page } = harness;
    await page.evaluate(async () => {
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    });
    const write = (path: string): Promise<unknown> =>
      page.evaluate((target) => window.recursaHarness?.runSandbox(`try { await mem.writeFile(${JSON.stringify(target)}, 'x'); return 'written'; } catch (e) { return e.code; }`), path);
    expect(await write('Private/first.md')).toBe('written');
    const workers = await page.evaluate(() => window.recursaHarness?.counts().workers);
    await page.evaluate(() => window.recursaHarness?.openSettings());
    await page.locator('.setting-item').filter({ hasText: 'Protected folders' }).locator('textarea').fill('Private');
    // Saving is asynchronous: calls made while it runs may still pass; once one is refused, all are.
    let attempt = 0;
    await expect.poll(() => write(`Private/attempt-${++attempt}.md`)).toBe('PathRefused');
    expect(existsSync(join(dir, `Private/attempt-${attempt}.md`))).toBe(false);
    expect(await write('Private/later.md')).toBe('PathRefused');
    expect(await page.evaluate(() => window.recursaHarness?.counts().workers)).toBe(workers);
    const saved = JSON.parse(await readFile(join(dir, '.obsidian/plugins/recursa/data.json'), 'utf8')) as { protectedFolders: string[] };
    expect(saved.protectedFolders).toEqual(['Private']);
  });

  it('works on a phone, where answers arrive whole through requestUrl', async () => {
    harness = await openHarness({ vaultDir: dir, nodeHttp: false, viewport: { width: 390, height: 844 } });
    const { page } = harness;
    await page.evaluate(async () => {
      window.recursaHarness?.setPhone(true);
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    });
    server.script([
      { text: answer({ think: 'Checking the inbox.', code: "return await mem.readFile('Inbox.md');" }), chunkSizes: [5], delayMs: 10 },
      { text: answer({ reply: 'Your inbox says: *Remember to call Sam about Alpha.*' }) },
    ]);
    // The ribbon is hidden on a phone; the command opens the chat.
    await page.evaluate(() => window.recursaHarness?.runCommand('recursa:open-chat'));
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('What is in my inbox?');
    await page.getByRole('textbox', { name: 'Message to the agent' }).press('Enter');
    await expect.poll(() => page.locator('.recursa-message-agent').textContent(), { timeout: 15_000 }).toBe('Your inbox says: Remember to call Sam about Alpha.');
    // requestUrl cannot stream: the request asked for a whole answer.
    expect((server.requests[0]?.body as { stream?: boolean }).stream).not.toBe(true);
    await page.locator('details.recursa-code summary').click();
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
      await page.screenshot({ path: join(SCREENSHOTS, `phone-${theme}.png`) });
    }
  });
});
