/**
 * Obsidian's DOM helpers (`createEl`, `empty`, `setText`, `addClass`…), which the app adds to the
 * prototypes of `Node`, `Element` and `HTMLElement` and to the window. Assigned against the
 * official global declarations, so each signature is checked. Installed once, when the module loads
 * in a page with a DOM; in Node (no DOM) nothing happens.
 */

type Attrs = Record<string, string | number | boolean | null>;

function applyInfo(el: Element, o: DomElementInfo | SvgElementInfo | string | undefined): void {
  const info: DomElementInfo = typeof o === 'string' ? { cls: o } : (o ?? {});
  if (info.cls !== undefined) el.addClasses(Array.isArray(info.cls) ? info.cls : info.cls.split(' ').filter((name) => name !== ''));
  if (info.text !== undefined) el.setText(info.text);
  if (info.attr !== undefined) el.setAttrs(info.attr);
  if (info.title !== undefined) el.setAttr('title', info.title);
  if (info.value !== undefined && 'value' in el) (el as HTMLInputElement).value = info.value;
  if (info.type !== undefined) el.setAttr('type', info.type);
  if (info.placeholder !== undefined) el.setAttr('placeholder', info.placeholder);
  if (info.href !== undefined) el.setAttr('href', info.href);
  if (info.parent !== undefined) {
    if (info.prepend === true) info.parent.insertBefore(el, info.parent.firstChild);
    else info.parent.appendChild(el);
  }
}

function make<T extends Element>(el: T, parent: Node | null, o: DomElementInfo | SvgElementInfo | string | undefined, callback?: (el: T) => void): T {
  const info = typeof o === 'string' ? { cls: o } : (o ?? {});
  if (parent !== null && info.parent === undefined) {
    if (info.prepend === true) parent.insertBefore(el, parent.firstChild);
    else parent.appendChild(el);
  }
  applyInfo(el, info);
  callback?.(el);
  return el;
}

function ownerOf(node: Node): Document {
  return node.ownerDocument ?? (node as Document);
}

function createElIn<K extends keyof HTMLElementTagNameMap>(
  parent: Node | null,
  doc: Document,
  tag: K,
  o?: DomElementInfo | string,
  callback?: (el: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
  return make(doc.createElement(tag), parent, o, callback);
}

function createSvgIn<K extends keyof SVGElementTagNameMap>(
  parent: Node | null,
  doc: Document,
  tag: K,
  o?: SvgElementInfo | string,
  callback?: (el: SVGElementTagNameMap[K]) => void,
): SVGElementTagNameMap[K] {
  return make(doc.createElementNS('http://www.w3.org/2000/svg', tag), parent, o, callback);
}

function install(): void {
  const node = Node.prototype;
  node.createEl = function <K extends keyof HTMLElementTagNameMap>(this: Node, tag: K, o?: DomElementInfo | string, callback?: (el: HTMLElementTagNameMap[K]) => void) {
    return createElIn(this, ownerOf(this), tag, o, callback);
  };
  node.createDiv = function (this: Node, o?: DomElementInfo | string, callback?: (el: HTMLDivElement) => void) {
    return createElIn(this, ownerOf(this), 'div', o, callback);
  };
  node.createSpan = function (this: Node, o?: DomElementInfo | string, callback?: (el: HTMLSpanElement) => void) {
    return createElIn(this, ownerOf(this), 'span', o, callback);
  };
  node.createSvg = function <K extends keyof SVGElementTagNameMap>(this: Node, tag: K, o?: SvgElementInfo | string, callback?: (el: SVGElementTagNameMap[K]) => void) {
    return createSvgIn(this, ownerOf(this), tag, o, callback);
  };
  node.empty = function (this: Node) {
    while (this.firstChild !== null) this.removeChild(this.firstChild);
  };
  node.detach = function (this: Node) {
    this.parentNode?.removeChild(this);
  };
  node.appendText = function (this: Node, val: string) {
    this.appendChild(ownerOf(this).createTextNode(val));
  };
  node.insertAfter = function <T extends Node>(this: Node, child: T, other: Node | null): T {
    this.insertBefore(child, other === null ? this.firstChild : other.nextSibling);
    return child;
  };
  node.indexOf = function (this: Node, other: Node) {
    return Array.prototype.indexOf.call(this.childNodes, other);
  };
  node.setChildrenInPlace = function (this: Node, children: Node[]) {
    this.empty();
    for (const child of children) this.appendChild(child);
  };
  node.instanceOf = function <T>(this: Node, type: new () => T): boolean {
    return this instanceof type;
  } as Node['instanceOf'];
  Object.defineProperty(node, 'doc', { configurable: true, get: function (this: Node) { return ownerOf(this); } });
  Object.defineProperty(node, 'win', { configurable: true, get: function (this: Node) { return ownerOf(this).defaultView ?? window; } });
  Object.defineProperty(node, 'constructorWin', { configurable: true, get: function (this: Node) { return ownerOf(this).defaultView ?? window; } });

  const element = Element.prototype;
  element.getText = function (this: Element) {
    return this.textContent ?? '';
  };
  element.setText = function (this: Element, val: string | DocumentFragment) {
    this.empty();
    if (typeof val === 'string') this.textContent = val;
    else this.appendChild(val);
  };
  element.addClass = function (this: Element, ...classes: string[]) {
    this.classList.add(...classes);
  };
  element.addClasses = function (this: Element, classes: string[]) {
    this.classList.add(...classes);
  };
  element.removeClass = function (this: Element, ...classes: string[]) {
    this.classList.remove(...classes);
  };
  element.removeClasses = function (this: Element, classes: string[]) {
    this.classList.remove(...classes);
  };
  element.toggleClass = function (this: Element, classes: string | string[], value: boolean) {
    for (const name of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(name, value);
  };
  element.hasClass = function (this: Element, cls: string) {
    return this.classList.contains(cls);
  };
  element.setAttr = function (this: Element, name: string, value: string | number | boolean | null) {
    if (value === null) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  };
  element.setAttrs = function (this: Element, obj: Attrs) {
    for (const [name, value] of Object.entries(obj)) this.setAttr(name, value);
  };
  element.getAttr = function (this: Element, name: string) {
    return this.getAttribute(name);
  };
  element.matchParent = function (this: Element, selector: string, lastParent?: Element) {
    if (this.matches(selector)) return this;
    const parent = this.parentElement;
    return parent === null || parent === lastParent ? null : parent.matchParent(selector, lastParent);
  };
  element.isActiveElement = function (this: Element) {
    return ownerOf(this).activeElement === this;
  };
  element.find = function (this: Element, selector: string) {
    return this.querySelector(selector);
  };
  element.findAll = function (this: Element, selector: string) {
    return Array.from(this.querySelectorAll<HTMLElement>(selector));
  };

  const html = HTMLElement.prototype;
  html.show = function (this: HTMLElement) {
    this.style.removeProperty('display');
  };
  html.hide = function (this: HTMLElement) {
    this.setCssProps({ display: 'none' });
  };
  html.toggle = function (this: HTMLElement, show: boolean) {
    if (show) this.show();
    else this.hide();
  };
  html.toggleVisibility = function (this: HTMLElement, visible: boolean) {
    this.style.visibility = visible ? '' : 'hidden';
  };
  html.isShown = function (this: HTMLElement) {
    return this.style.display !== 'none' && this.isConnected;
  };
  html.setCssProps = function (this: HTMLElement, props: Record<string, string>) {
    for (const [name, value] of Object.entries(props)) this.style.setProperty(name, value);
  };
  html.setCssStyles = function (this: HTMLElement, styles: Partial<CSSStyleDeclaration>) {
    Object.assign(this.style, styles);
  };
  html.onClickEvent = function (this: HTMLElement, listener: (this: HTMLElement, ev: MouseEvent) => unknown, options?: boolean | AddEventListenerOptions) {
    this.addEventListener('click', listener, options);
    this.addEventListener('auxclick', listener, options);
  };

  const scope = window as unknown as Record<string, unknown>;
  scope.createEl = <K extends keyof HTMLElementTagNameMap>(tag: K, o?: DomElementInfo | string, callback?: (el: HTMLElementTagNameMap[K]) => void) =>
    createElIn(null, document, tag, o, callback);
  scope.createDiv = (o?: DomElementInfo | string, callback?: (el: HTMLDivElement) => void) => createElIn(null, document, 'div', o, callback);
  scope.createSpan = (o?: DomElementInfo | string, callback?: (el: HTMLSpanElement) => void) => createElIn(null, document, 'span', o, callback);
  scope.createSvg = <K extends keyof SVGElementTagNameMap>(tag: K, o?: SvgElementInfo | string, callback?: (el: SVGElementTagNameMap[K]) => void) =>
    createSvgIn(null, document, tag, o, callback);
  scope.createFragment = (callback?: (el: DocumentFragment) => void) => {
    const fragment = document.createDocumentFragment();
    callback?.(fragment);
    return fragment;
  };
  scope.sleep = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));
  scope.nextFrame = () => new Promise<void>((resolve) => window.requestAnimationFrame(() => resolve()));
}

let installed = false;

/** Adds the helpers once, when there is a DOM. */
export function installDomHelpers(): void {
  if (installed || typeof Node === 'undefined' || typeof window === 'undefined') return;
  installed = true;
  install();
}

installDomHelpers();
