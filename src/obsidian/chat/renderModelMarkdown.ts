import { MarkdownRenderer, type App, type Component } from 'obsidian';
import { neutralizeMarkdown } from './neutralizeMarkdown';

const REMOVED_ELEMENTS = 'script, style, iframe, frame, object, embed, link, meta, base, form, input, textarea, select, button:not(.copy-code-button)';
const SAFE_URL = /^(https?:|mailto:|obsidian:|#)/i;

/**
 * Renders Markdown the model wrote into `el`, with Obsidian's renderer, so that nothing in it can
 * run: the text is neutralised first (no raw HTML reaches the renderer, see `neutralizeMarkdown`),
 * it is rendered into a detached, inert document (no scripts, no image loads, no handlers), then
 * anything active that got through is dropped — script-like elements, `on*` attributes, links and
 * sources other than web, mail and note links — before the result moves into the view.
 * Links to notes open them.
 */
export async function renderModelMarkdown(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
  const inert = document.implementation.createHTMLDocument('');
  const staging = inert.createElement('div');
  inert.body.appendChild(staging);
  await MarkdownRenderer.render(app, neutralizeMarkdown(markdown), staging, sourcePath, component);
  sanitize(staging);
  while (staging.firstChild !== null) el.appendChild(el.doc.adoptNode(staging.firstChild));
  for (const link of Array.from(el.querySelectorAll<HTMLAnchorElement>('a.internal-link'))) {
    const target = link.getAttribute('data-href') ?? link.getAttribute('href') ?? '';
    link.addEventListener('click', (evt) => {
      evt.preventDefault();
      void app.workspace.openLinkText(target, sourcePath, evt.ctrlKey || evt.metaKey);
    });
  }
}

function sanitize(root: HTMLElement): void {
  for (const element of Array.from(root.querySelectorAll(REMOVED_ELEMENTS))) element.remove();
  for (const element of Array.from(root.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.trim();
      const isUrl = name === 'href' || name === 'src' || name === 'xlink:href' || name === 'action' || name === 'formaction';
      const internal = element.classList.contains('internal-link') && name === 'href' && !/^[a-z][a-z\d+.-]*:/i.test(value);
      if (name.startsWith('on') || name === 'srcdoc' || name === 'style' || (isUrl && !internal && !SAFE_URL.test(value))) element.removeAttribute(attribute.name);
    }
  }
}
