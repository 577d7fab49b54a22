import type * as Obsidian from 'obsidian';

/** Obsidian's opaque event subscription handle. */
export type EventRef = Obsidian.EventRef;

type Callback = (...data: never[]) => unknown;

/** What `on` hands out; `offref` finds the subscription again by identity. */
class Subscription implements EventRef {
  constructor(
    readonly owner: Events,
    readonly name: string,
    readonly fn: Callback,
    readonly ctx: unknown,
  ) {}
}

/**
 * Obsidian's `Events`: named callbacks, called in subscription order. A callback that throws does
 * not stop the others; its error is rethrown from a timer, as Obsidian does, so it still surfaces.
 */
export class Events implements Obsidian.Events {
  private readonly subscriptions = new Map<string, Subscription[]>();

  on(name: string, callback: (...data: unknown[]) => unknown, ctx?: unknown): EventRef {
    return this.subscribe(name, callback, ctx);
  }

  off(name: string, callback: (...data: unknown[]) => unknown): void {
    const list = this.subscriptions.get(name);
    if (list === undefined) return;
    this.subscriptions.set(
      name,
      list.filter((subscription) => subscription.fn !== callback),
    );
  }

  offref(ref: EventRef): void {
    if (!(ref instanceof Subscription) || ref.owner !== this) return;
    const list = this.subscriptions.get(ref.name);
    if (list === undefined) return;
    this.subscriptions.set(
      ref.name,
      list.filter((subscription) => subscription !== ref),
    );
  }

  trigger(name: string, ...data: unknown[]): void {
    for (const subscription of [...(this.subscriptions.get(name) ?? [])]) this.tryTrigger(subscription, data);
  }

  tryTrigger(evt: EventRef, args: unknown[]): void {
    if (!(evt instanceof Subscription)) return;
    try {
      Reflect.apply(evt.fn, evt.ctx, args);
    } catch (error) {
      setTimeout(() => {
        throw error;
      }, 0);
    }
  }

  /** Test-only: how many callbacks are subscribed, over every event name. */
  listenerCount(): number {
    let count = 0;
    for (const list of this.subscriptions.values()) count += list.length;
    return count;
  }

  /** `on` with a typed callback, for subclasses that declare typed overloads (as `Vault` does). */
  protected subscribe(name: string, callback: Callback, ctx: unknown): EventRef {
    const subscription = new Subscription(this, name, callback, ctx);
    this.subscriptions.set(name, [...(this.subscriptions.get(name) ?? []), subscription]);
    return subscription;
  }
}
