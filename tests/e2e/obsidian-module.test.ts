// The UI part of the test obsidian module, in a real page: the behaviour the plugin relies on,
// as Obsidian has it (DOM helpers, Component lifecycle, modals, notices, settings, views).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/tempVault';
import { openHarness, type HarnessPage } from './harness/chatHarness';
import { seedNotes } from './harness/chatVault';

describe('the test obsidian module in a page', () => {
  let harness: HarnessPage;
  let removeDir: () => Promise<void>;

  beforeAll(async () => {
    const temp = await makeTempDir('recursa-module-');
    removeDir = temp.remove;
    await seedNotes(temp.dir);
    harness = await openHarness({ vaultDir: temp.dir, deferLayout: true });
  });

  afterAll(async () => {
    await harness.close();
    await removeDir();
  });

  it('adds Obsidian’s DOM helpers to elements and to the window', async () => {
    const result = await harness.page.evaluate(() => {
      const host = createDiv({ cls: 'a b', attr: { 'data-x': 1, hidden: null }, text: 'old' });
      const first = host.createEl('button', { cls: ['c', 'd'], text: 'Go', title: 'Tip', type: 'button' }, (el) => el.setAttr('data-made', true));
      const prepended = host.createSpan({ text: 'first', prepend: true });
      const fragment = createFragment((frag) => frag.createEl('strong', { text: 'bold' }));
      const other = createDiv();
      other.setText(fragment);
      first.toggleClass(['c', 'e'], false);
      first.addClass('f', 'g');
      first.removeClass('g');
      first.setAttr('title', null);
      const before = host.childNodes.length;
      prepended.detach();
      const afterDetach = host.childNodes.length;
      host.empty();
      return {
        hostClass: host.className,
        hostAttr: host.getAttr('data-x'),
        hidden: host.hasAttribute('hidden'),
        firstClass: first.className,
        firstTitle: first.getAttribute('title'),
        firstType: first.getAttribute('type'),
        made: first.getAttribute('data-made'),
        prependedFirst: before === 3,
        afterDetach,
        emptied: host.childNodes.length,
        fragmentHtml: other.innerHTML,
      };
    });
    expect(result).toEqual({
      hostClass: 'a b',
      hostAttr: '1',
      hidden: false,
      firstClass: 'd f',
      firstTitle: null,
      firstType: 'button',
      made: 'true',
      prependedFirst: true,
      afterDetach: 2,
      emptied: 0,
      fragmentHtml: '<strong>bold</strong>',
    });
  });

  it('loads and unloads components as Obsidian does, undoing what they registered', async () => {
    const log = await harness.page.evaluate(async () => {
      const { Component, Events } = window.recursaObsidian!;
      const log: string[] = [];
      class Part extends Component {
        constructor(readonly name: string) {
          super();
        }
        override onload(): void {
          log.push(`load ${this.name}`);
        }
        override onunload(): void {
          log.push(`unload ${this.name}`);
        }
      }
      const parent = new Part('parent');
      const child = parent.addChild(new Part('child'));
      const events = new Events();
      parent.registerEvent(events.on('ping', () => log.push('ping')));
      const target = document.body.createDiv();
      parent.registerDomEvent(target, 'click', () => log.push('click'));
      let ticks = 0;
      parent.registerInterval(window.setInterval(() => ticks++, 5));
      parent.register(() => log.push('cleanup 1'));
      parent.register(() => log.push('cleanup 2'));
      parent.load();
      parent.load();
      events.trigger('ping');
      target.click();
      parent.unload();
      parent.unload();
      events.trigger('ping');
      target.click();
      const ticksAtUnload = ticks;
      await new Promise((resolve) => window.setTimeout(resolve, 30));
      target.detach();
      log.push(`ticks after unload: ${ticks - ticksAtUnload}`, `child loaded: ${String(child.isLoaded)}`);
      return log;
    });
    expect(log).toEqual(['load parent', 'load child', 'ping', 'click', 'unload child', 'cleanup 2', 'cleanup 1', 'unload parent', 'ticks after unload: 0', 'child loaded: false']);
  });

  it('opens and closes modals (Escape closes), and hides notices after their time', async () => {
    const result = await harness.page.evaluate(async () => {
      const { Modal, Notice } = window.recursaObsidian!;
      const log: string[] = [];
      class Ask extends Modal {
        override onOpen(): void {
          log.push('open');
          this.contentEl.createEl('button', { text: 'Yes' });
        }
        override onClose(): void {
          log.push('close');
        }
      }
      const modal = new Ask(window.recursaHarness as never);
      modal.setTitle('Sure?').setCloseCallback(() => log.push('callback'));
      modal.open();
      const shown = document.querySelectorAll('.modal-container .modal-title').length;
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
      const afterEscape = document.querySelectorAll('.modal-container').length;
      new Notice('Saved', 50);
      const notices = Array.from(document.querySelectorAll('.notice'), (el) => el.textContent);
      await new Promise((resolve) => window.setTimeout(resolve, 120));
      return { log, shown, afterEscape, notices, noticesLater: document.querySelectorAll('.notice').length };
    });
    expect(result).toEqual({ log: ['open', 'close', 'callback'], shown: 1, afterEscape: 0, notices: ['Saved'], noticesLater: 0 });
  });

  it('builds settings rows whose controls report changes, and keeps secrets by id', async () => {
    const result = await harness.page.evaluate(() => {
      const { Setting, SecretStorage } = window.recursaObsidian!;
      const container = document.body.createDiv();
      const changes: string[] = [];
      new Setting(container)
        .setName('Model')
        .setDesc('Which model')
        .addText((text) => text.setPlaceholder('gpt').setValue('a').onChange((value) => changes.push(`text ${value}`)))
        .addToggle((toggle) => toggle.setValue(false).onChange((value) => changes.push(`toggle ${String(value)}`)))
        .addDropdown((dropdown) => dropdown.addOptions({ x: 'X', y: 'Y' }).setValue('y').onChange((value) => changes.push(`dropdown ${value}`)));
      const input = container.querySelector('input[type="text"]') as HTMLInputElement;
      input.value = 'b';
      input.dispatchEvent(new Event('input'));
      const checkbox = container.querySelector('input[type="checkbox"]') as HTMLInputElement;
      checkbox.click();
      const select = container.querySelector('select') as HTMLSelectElement;
      select.value = 'x';
      select.dispatchEvent(new Event('change'));
      const storage = new SecretStorage();
      storage.setSecret('openai-key', 'sk-1');
      let refused = '';
      try {
        storage.setSecret('Bad Id', 'x');
      } catch (error) {
        refused = (error as Error).message;
      }
      const row = { name: container.querySelector('.setting-item-name')?.textContent, desc: container.querySelector('.setting-item-description')?.textContent };
      container.detach();
      return { changes, row, secret: storage.getSecret('openai-key'), missing: storage.getSecret('nope'), refused, ids: storage.listSecrets() };
    });
    expect(result).toEqual({
      changes: ['text b', 'toggle true', 'dropdown x'],
      row: { name: 'Model', desc: 'Which model' },
      secret: 'sk-1',
      missing: null,
      refused: 'Invalid secret ID: Bad Id',
      ids: ['openai-key'],
    });
  });

  it('renders Markdown with note links and highlighted code, keeping raw HTML as HTML', async () => {
    const html = await harness.page.evaluate(async () => {
      const { MarkdownRenderer, Component } = window.recursaObsidian!;
      const el = createDiv();
      const owner = new Component();
      await MarkdownRenderer.render(window.recursaHarness, 'See [[People/Sam|Sam]] and <u>this</u>.\n\n```ts\nconst a = 1;\n```', el, '', owner);
      owner.unload();
      return el.innerHTML;
    });
    expect(html).toContain('<a data-href="People/Sam" href="People/Sam" class="internal-link" target="_blank" rel="noopener nofollow">Sam</a>');
    expect(html).toContain('<u>this</u>');
    expect(html).toContain('<span class="token keyword">const</span>');
  });

  it('waits for the layout before onLayoutReady callbacks, and opens and closes views in leaves', async () => {
    const log = await harness.page.evaluate(async () => {
      const { ItemView } = window.recursaObsidian!;
      const workspace = window.recursaHarness!.app().workspace;
      const log: string[] = [];
      workspace.onLayoutReady(() => log.push('ready 1'));
      log.push('registered');
      window.recursaHarness!.setLayoutReady();
      workspace.onLayoutReady(() => log.push('ready 2'));
      class Panel extends ItemView {
        getViewType(): string {
          return 'test-panel';
        }
        getDisplayText(): string {
          return 'Panel';
        }
        protected override async onOpen(): Promise<void> {
          log.push(`open, content is children[1]: ${String(this.containerEl.children[1] === this.contentEl)}`);
        }
        protected override async onClose(): Promise<void> {
          log.push('close');
        }
        override onunload(): void {
          log.push('unload');
        }
      }
      workspace.registerView('test-panel', (leaf) => new Panel(leaf));
      const leaf = workspace.getRightLeaf(false);
      await leaf.setViewState({ type: 'test-panel', active: true });
      log.push(`leaves: ${workspace.getLeavesOfType('test-panel').length}, in the right split: ${String(workspace.rightSplitEl.contains(leaf.containerEl))}`);
      workspace.detachLeavesOfType('test-panel');
      await new Promise((resolve) => window.setTimeout(resolve, 10));
      log.push(`leaves: ${workspace.getLeavesOfType('test-panel').length}`);
      return log;
    });
    expect(log).toEqual(['registered', 'ready 1', 'ready 2', 'open, content is children[1]: true', 'leaves: 1, in the right split: true', 'close', 'unload', 'leaves: 0']);
  });
});
