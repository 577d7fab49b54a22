// Obsidian's global DOM helpers (`createDiv`, `createEl`, `createSpan` and their `Node` methods),
// as its `obsidian.d.ts` declares them, for a page that runs plugin code outside the app.
// Only the `DomElementInfo` fields the plugin's editor code uses are implemented.

type Info = DomElementInfo | string | undefined;

function build<K extends keyof HTMLElementTagNameMap>(tag: K, info: Info, parent: Node | null): HTMLElementTagNameMap[K] {
  // The XHTML namespace gives the same element `document.createElement(tag)` would.
  const el = document.createElementNS('http://www.w3.org/1999/xhtml', tag) as HTMLElementTagNameMap[K];
  const o: DomElementInfo = typeof info === 'string' ? { text: info } : (info ?? {});
  if (o.cls !== undefined) el.classList.add(...(Array.isArray(o.cls) ? o.cls : o.cls.split(' ').filter((c) => c !== '')));
  if (typeof o.text === 'string') el.textContent = o.text;
  else if (o.text !== undefined) el.appendChild(o.text);
  if (o.title !== undefined) el.title = o.title;
  if (o.value !== undefined) el.setAttribute('value', o.value);
  if (o.type !== undefined) el.setAttribute('type', o.type);
  if (o.placeholder !== undefined) el.setAttribute('placeholder', o.placeholder);
  if (o.href !== undefined) el.setAttribute('href', o.href);
  for (const [name, value] of Object.entries(o.attr ?? {})) {
    if (value === null || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  const target = o.parent ?? parent;
  if (target !== null) {
    if (o.prepend === true) target.insertBefore(el, target.firstChild);
    else target.appendChild(el);
  }
  return el;
}

const helpers = {
  createEl: <K extends keyof HTMLElementTagNameMap>(tag: K, info?: Info) => build(tag, info, null),
  createDiv: (info?: Info) => build('div', info, null),
  createSpan: (info?: Info) => build('span', info, null),
};
Object.assign(window, helpers);
Object.assign(Node.prototype, {
  createEl<K extends keyof HTMLElementTagNameMap>(this: Node, tag: K, info?: Info) {
    return build(tag, info, this);
  },
  createDiv(this: Node, info?: Info) {
    return build('div', info, this);
  },
  createSpan(this: Node, info?: Info) {
    return build('span', info, this);
  },
});

Object.assign(Element.prototype, {
  setText(this: Element, value: string | DocumentFragment) {
    if (typeof value === 'string') this.textContent = value;
    else this.replaceChildren(value);
  },
  addClass(this: Element, ...classes: string[]) {
    this.classList.add(...classes);
  },
  removeClass(this: Element, ...classes: string[]) {
    this.classList.remove(...classes);
  },
  toggleClass(this: Element, classes: string | string[], value: boolean) {
    for (const name of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(name, value);
  },
  hasClass(this: Element, name: string) {
    return this.classList.contains(name);
  },
  setAttr(this: Element, name: string, value: string | number | boolean | null) {
    if (value === null) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  },
  setAttrs(this: Element, attrs: Record<string, string | number | boolean | null>) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    }
  },
});
Object.assign(HTMLElement.prototype, {
  // Obsidian hides with `display: none`; the `hidden` property is the same for a test page.
  show(this: HTMLElement) {
    this.hidden = false;
  },
  hide(this: HTMLElement) {
    this.hidden = true;
  },
  toggle(this: HTMLElement, show: boolean) {
    this.hidden = !show;
  },
});

Object.assign(Node.prototype, {
  empty(this: Node) {
    while (this.firstChild !== null) this.removeChild(this.firstChild);
  },
});
