// The mobile harness itself, and what the plugin shows on a phone: the page has no Node and the
// adapter is the phone's; the built main.js loads and takes its first snapshot there; the settings
// leave out what cannot work on a phone (the MCP server) instead of showing it broken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVault } from '../helpers/mobile/generatedVault';
import { MobileHarness, pluginSettingsFile } from '../helpers/mobile/mobileHarness';
import { makeTempDir } from '../helpers/tempVault';

const MB = 1024 * 1024;

describe('the mobile harness', () => {
  let harness: MobileHarness;

  beforeAll(async () => {
    harness = await MobileHarness.open({ vaultName: 'Harness vault' });
    await harness.seedFiles({ 'Inbox.md': 'Hello from the phone.\n', 'Projects/Alpha.md': '# Alpha\n' });
    await harness.start();
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('is phone-shaped: no Node, no desktop adapter, the mobile adapter without a base path, Platform says mobile', async () => {
    const env = await harness.call((mobile) => mobile.environment(), null);
    expect(env).toEqual({
      windowRequire: 'undefined',
      process: 'undefined',
      globalBuffer: 'undefined',
      fileSystemAdapterExport: 'undefined',
      adapterClass: 'CapacitorAdapter',
      adapterHasBasePath: false,
      isMobile: true,
      isMobileApp: true,
      isDesktopApp: false,
    });
  });

  it('refuses a Uint8Array view in writeBinary, as the phone adapter takes an ArrayBuffer whole', async () => {
    const refused = await harness.page.evaluate(async () => {
      const mobile = window.recursaMobile;
      if (mobile === undefined) throw new Error('the mobile page is not loaded');
      const bytes = new Uint8Array(new ArrayBuffer(16), 4, 4);
      try {
        await mobile.adapter().writeBinary('view.bin', bytes as unknown as ArrayBuffer);
        return null;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    });
    expect(refused).toMatch(/ArrayBuffer, not a view/);
  });

  it('keeps text as text and binary as binary, reads either as the other and counts text in UTF-8 bytes', async () => {
    const seen = await harness.call(async (mobile, name) => {
      const adapter = mobile.adapter();
      const bytesOf = async (path: string): Promise<number[]> => [...new Uint8Array(await adapter.readBinary(path))];
      await adapter.mkdir('Store');
      await adapter.write('Store/text.md', 'héllo 😀 \ud800');
      await adapter.append('Store/text.md', ' and more');
      await adapter.writeBinary('Store/binary.dat', new Uint8Array([0x41, 0xc3, 0xa9, 0xff]).buffer);
      await adapter.append('Store/binary.dat', 'é');
      await adapter.appendBinary('Store/log.txt', new Uint8Array([0x61]).buffer);
      await adapter.append('Store/log.txt', 'b');
      await Promise.all([adapter.append('Store/log.txt', 'c'), adapter.appendBinary('Store/log.txt', new Uint8Array([0x64]).buffer)]);
      await adapter.copy('Store/text.md', 'Store/copy.md');
      return {
        text: await adapter.read('Store/text.md'),
        textBytes: await bytesOf('Store/text.md'),
        textSize: (await adapter.stat('Store/text.md'))?.size,
        copy: await adapter.read('Store/copy.md'),
        binaryBytes: await bytesOf('Store/binary.dat'),
        binarySize: (await adapter.stat('Store/binary.dat'))?.size,
        log: await adapter.read('Store/log.txt'),
        logSize: (await adapter.stat('Store/log.txt'))?.size,
        persisted: await mobile.persistedText(name, 'Store/text.md'),
      };
    }, harness.vaultName);
    const text = 'héllo 😀 \ud800 and more';
    expect(seen.text).toBe(text);
    expect(seen.copy).toBe(text);
    expect(seen.textBytes).toEqual([...Buffer.from(text, 'utf8')]);
    expect(seen.textSize).toBe(Buffer.byteLength(text, 'utf8'));
    expect(seen.binaryBytes).toEqual([0x41, 0xc3, 0xa9, 0xff, 0xc3, 0xa9]);
    expect(seen.binarySize).toBe(6);
    expect(seen.log).toBe('abcd');
    expect(seen.logSize).toBe(4);
    expect(seen.persisted).toBe(text);
  });

  it('answers reads in a later task, from the worker that holds the files, and keeps every write in IndexedDB', async () => {
    const seen = await harness.page.evaluate(async (vaultName) => {
      const mobile = window.recursaMobile;
      if (mobile === undefined) throw new Error('the mobile page is not loaded');
      const adapter = mobile.adapter();
      await adapter.mkdir('Kept');
      await adapter.write('Kept/note.md', 'first');
      await adapter.write('Kept/note.md', 'written again, é 😀');
      await adapter.rename('Kept/note.md', 'Kept/renamed.md');
      let answered = false;
      const reading = adapter.read('Kept/renamed.md').then((text) => ((answered = true), text));
      for (let turn = 0; turn < 100; turn++) await Promise.resolve();
      const answeredInTheSameTask = answered;
      // A write posted after a read does not change what the read gets.
      const before = adapter.read('Inbox.md');
      const rewriting = adapter.write('Inbox.md', 'changed after the read');
      const texts = await Promise.all([reading, before, adapter.read('Projects/Alpha.md')]);
      await rewriting;
      const after = await adapter.read('Inbox.md');
      const persisted = await mobile.persistedText(vaultName, 'Kept/renamed.md');
      return { answeredInTheSameTask, texts, after, persisted };
    }, harness.vaultName);
    expect(seen.answeredInTheSameTask).toBe(false);
    expect(seen.texts).toEqual(['written again, é 😀', 'Hello from the phone.\n', '# Alpha\n']);
    expect(seen.after).toBe('changed after the read');
    expect(seen.persisted).toBe('written again, é 😀');
  });

  it('loads the built main.js and takes the first snapshot, with no page errors', async () => {
    await harness.loadPlugin();
    await harness.call((mobile) => mobile.whenSnapshotDone(), null);
    const stored = await harness.call((mobile, name) => mobile.listStore(name, '.git'), harness.vaultName);
    expect(stored).toContain('.git/HEAD');
    expect(stored.some((path) => path.startsWith('.git/objects/'))).toBe(true);
    expect(harness.pageErrors).toEqual([]);
  }, 60_000);

  it('leaves the MCP server (desktop only) out of the settings on a phone, and shows the rest', async () => {
    const headings = await harness.call((mobile) => mobile.openSettings(), null);
    expect(headings).toEqual(['Model', 'Vault', 'History', 'Memory', 'Sync', 'Advanced']);
    const settingsText = (await harness.page.locator('.mobile-settings').textContent()) ?? '';
    expect(settingsText).toContain('Sync now');
    expect(settingsText).not.toMatch(/MCP/);
    await harness.call((mobile) => mobile.closeSettings(), null);
  });

  it('opens the chat by its command (the ribbon is hidden on a phone)', async () => {
    await expect.poll(() => harness.page.getByRole('button', { name: 'Open agent chat' }).isVisible()).toBe(false);
    expect(await harness.runCommand('recursa:open-chat')).toBe(true);
    await harness.page.locator('.recursa-chat').waitFor();
    await expect.poll(() => harness.page.getByRole('textbox', { name: 'Message to the agent' }).isVisible()).toBe(true);
    expect(harness.pageErrors).toEqual([]);
  });
});

describe('memory on the phone-shaped runtime', () => {
  let harness: MobileHarness;
  let source: { dir: string; remove: () => Promise<void> };

  beforeAll(async () => {
    source = await makeTempDir('recursa-mobile-memory-');
    await generateVault(source.dir, 1000);
    harness = await MobileHarness.open({ vaultName: 'Memory vault' });
    await harness.seedFromFolder(source.dir);
    const settings = pluginSettingsFile('http://127.0.0.1:9/v1');
    await harness.seedFiles({ [settings.path]: settings.text });
    await harness.start();
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
    await source?.remove();
  });

  it('gives back what the index, the git caches and the sandbox held when the plugin is disabled', async () => {
    await harness.call((mobile, name) => mobile.forgetChanges(name), harness.vaultName);
    const before = await harness.heapUsed();
    await harness.loadPlugin();
    await harness.call((mobile) => mobile.whenSnapshotDone(), null);
    await harness.call((mobile) => mobile.whenIndexBuilt(), null);
    expect(await harness.call((mobile) => mobile.mem('search', 'project', { limit: 5 }), null)).not.toEqual([]);
    expect(await harness.call((mobile) => mobile.runSandbox('return 6 * 7;'), null)).toMatchObject({ ok: true, value: 42 });
    const loaded = await harness.heapUsed();
    await harness.unloadPlugin();
    // The export's list of changed paths belongs to the harness, not to the plugin.
    await harness.call((mobile, name) => mobile.forgetChanges(name), harness.vaultName);
    const after = await harness.heapUsed();
    // The loaded plugin holds megabytes (its code, the index, git's caches); disabled, under one is left
    // (the vault's own table of the files the plugin wrote, and the page's compiled-code caches).
    expect(loaded - before).toBeGreaterThan(5 * MB);
    expect(after - before).toBeLessThan(1 * MB);
    expect(harness.pageErrors).toEqual([]);
  }, 120_000);
});
