// The output under construction: its size budget and the notes describing every cut.

import { defineProperty, isArray } from './builtIns';
import { formatPath, type Where } from './paths';
import type { Slot } from './tasks';
import { cutString } from './textCuts';
import type { JsonSafeLimits, JsonValue } from './types';

const MAX_NOTES = 20;

function jsonCost(value: JsonValue): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (value === null) return 4;
  return 2;
}

/** Places converted values within `limits.maxTotalChars`, and keeps the truncation notes. */
export class JsonOutput {
  private readonly notes: string[] = [];
  private unlistedNotes = 0;
  private used = 0;
  /** True once the output limit is reached: nothing more is placed. */
  exhausted = false;

  constructor(readonly limits: JsonSafeLimits) {}

  note(path: Where, text: string): void {
    if (this.notes.length < MAX_NOTES) this.notes.push(`${formatPath(path)}: ${text}`);
    else this.unlistedNotes++;
  }

  /** The notes, with a count of those not listed. */
  finish(): string[] {
    if (this.unlistedNotes > 0) this.notes.push(`and ${this.unlistedNotes} more cuts`);
    return this.notes;
  }

  /** Places a value, or as much of a string as fits; false once the output limit is reached. */
  put(slot: Slot, path: Where, value: JsonValue): boolean {
    const keyCost = isArray(slot.holder) ? 1 : String(slot.key).length + 4;
    const room = this.limits.maxTotalChars - this.used - keyCost;
    if (jsonCost(value) > room) {
      this.exhausted = true;
      if (typeof value === 'string' && room > 2) {
        this.assign(slot, cutString(value, room - 2));
        this.note(path, `output limit of ${this.limits.maxTotalChars} characters reached: string cut to ${room - 2} characters and everything after it left out`);
      } else {
        this.note(path, `output limit of ${this.limits.maxTotalChars} characters reached: this and everything after it left out`);
      }
      return false;
    }
    this.used += keyCost + jsonCost(value);
    this.assign(slot, value);
    return true;
  }

  private assign(slot: Slot, value: JsonValue): void {
    if (isArray(slot.holder)) slot.holder.push(value);
    // defineProperty, so a key named `__proto__` stays an ordinary key.
    else defineProperty(slot.holder, slot.key, { value, enumerable: true, writable: true, configurable: true });
  }
}
