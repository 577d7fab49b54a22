import type * as Obsidian from 'obsidian';
import type { EventRef } from './events';

/**
 * Obsidian's `Component`: `load` runs `onload` then loads the children; `unload` unloads the
 * children (last first), runs every registered cleanup (last first), then `onunload`. Both are
 * idempotent. A child added to a loaded component is loaded at once.
 */
export class Component implements Obsidian.Component {
  private loadedNow = false;
  private readonly children: Component[] = [];
  private readonly cleanups: (() => unknown)[] = [];

  load(): void {
    if (this.loadedNow) return;
    this.loadedNow = true;
    this.onloadResult = this.onload();
    for (const child of [...this.children]) child.load();
  }

  onload(): void {
    // Subclasses override.
  }

  unload(): void {
    if (!this.loadedNow) return;
    this.loadedNow = false;
    while (this.children.length > 0) this.children.pop()?.unload();
    while (this.cleanups.length > 0) this.cleanups.pop()?.();
    this.onunload();
  }

  onunload(): void {
    // Subclasses override.
  }

  addChild<T extends Obsidian.Component>(component: T): T {
    this.children.push(component as unknown as Component);
    if (this.loadedNow) component.load();
    return component;
  }

  removeChild<T extends Obsidian.Component>(component: T): T {
    const at = this.children.indexOf(component as unknown as Component);
    if (at >= 0) {
      this.children.splice(at, 1);
      component.unload();
    }
    return component;
  }

  register(cb: () => unknown): void {
    this.cleanups.push(cb);
  }

  registerEvent(eventRef: Obsidian.EventRef): void {
    const ref: EventRef & { owner?: { offref(ref: EventRef): void } } = eventRef;
    this.register(() => ref.owner?.offref(ref));
  }

  registerDomEvent(
    el: Window | Document | HTMLElement,
    type: string,
    callback: (this: HTMLElement, ev: Event) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void {
    const listener: EventListener = callback;
    el.addEventListener(type, listener, options);
    this.register(() => el.removeEventListener(type, listener, options));
  }

  registerInterval(id: number): number {
    this.register(() => window.clearInterval(id));
    return id;
  }

  /** Test-module internal: what the last `onload` returned (a plugin's may be a promise). */
  protected onloadResult: unknown;

  /** Test-only: whether `load` ran and `unload` has not. */
  get isLoaded(): boolean {
    return this.loadedNow;
  }
}
