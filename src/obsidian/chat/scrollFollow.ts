/** How close to the bottom (in pixels) still counts as "reading the end". */
const NEAR_BOTTOM_PX = 48;
/** Space left above a reply that is shown from its start. */
const REVEAL_MARGIN_PX = 8;

/**
 * Keeps a scrolling list at its end while new content arrives, but only while the person is at
 * the end: once they scroll up to read, it stays where they are until they come back down.
 *
 * A scroll event arrives a frame after the scroll; content that arrives in between must not undo
 * the person's scroll, so each update first checks whether the list is still where it was put.
 */
export class ScrollFollow {
  private following = true;
  /** Where the list was last scrolled to by this class (null: not yet). */
  private placedAt: number | null = null;

  constructor(private readonly el: HTMLElement) {
    el.addEventListener('scroll', () => {
      this.following = this.nearBottom();
    });
  }

  /** New content arrived: go to the end if the person was there. */
  update(): void {
    if (this.movedByPerson()) this.following = false;
    if (this.following) this.place(this.el.scrollHeight);
  }

  /**
   * A reply arrived: when it is taller than the view, show its start (and stop following, so the
   * person reads it from the top); otherwise go to the end as `update` does.
   */
  reveal(reply: HTMLElement): void {
    if (this.movedByPerson()) this.following = false;
    if (!this.following) return;
    if (reply.offsetHeight <= this.el.clientHeight) {
      this.update();
      return;
    }
    const offset = reply.getBoundingClientRect().top - this.el.getBoundingClientRect().top;
    this.place(this.el.scrollTop + offset - REVEAL_MARGIN_PX);
    this.following = false;
  }

  /** The person acted (sent a request, opened a conversation): go to the end and follow again. */
  toEnd(): void {
    this.following = true;
    this.place(this.el.scrollHeight);
  }

  private place(top: number): void {
    this.el.scrollTop = top;
    this.placedAt = this.el.scrollTop;
  }

  private nearBottom(): boolean {
    return this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight <= NEAR_BOTTOM_PX;
  }

  /** The list is not where it was last put, and not at the end: the person scrolled. */
  private movedByPerson(): boolean {
    return this.placedAt !== null && Math.abs(this.el.scrollTop - this.placedAt) > 1 && !this.nearBottom();
  }
}
