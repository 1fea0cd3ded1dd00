import type { WidgetSignal } from '../domain/widget-signals';
import { pageTime } from './clock';

type InteractionsSignal = Extract<WidgetSignal, { kind: 'interactions' }>;
type Counts = InteractionsSignal['counts'];

// Continuous events are counted at most this often, so a scroll or a mouse sweep counts as a few.
const THROTTLE_MS: Partial<Record<keyof Counts, number>> = { pointerMoves: 100, scrolls: 100 };
// Pauses longer than this are not typing rhythm.
const MAX_KEY_INTERVAL_MS = 3000;

/**
 * Counts and timings of the shopper's interactions: how many clicks, keys, moves and so on, when
 * the first came, and the mean interval between key presses. Never which key, where, or what
 * was typed or pasted.
 */
export class InteractionTracker {
  private readonly counts: Counts = {
    clicks: 0,
    keys: 0,
    pointerMoves: 0,
    scrolls: 0,
    touches: 0,
    focusChanges: 0,
    pastes: 0,
    copies: 0,
  };
  private readonly lastCounted: Partial<Record<keyof Counts, number>> = {};
  private firstInteractionMs: number | null = null;
  private lastKeyAt: number | null = null;
  private keyIntervalTotal = 0;
  private keyIntervals = 0;
  private changed = true;

  start(doc: Document): void {
    const on = (type: string, count: keyof Counts) =>
      doc.addEventListener(type, () => this.count(count), { capture: true, passive: true });
    on('click', 'clicks');
    on('pointermove', 'pointerMoves');
    on('scroll', 'scrolls');
    on('touchstart', 'touches');
    on('focusin', 'focusChanges');
    on('paste', 'pastes');
    on('copy', 'copies');
    doc.addEventListener('keydown', () => this.key(), { capture: true, passive: true });
  }

  /** The totals so far, or null when nothing happened since the last snapshot (unless forced). */
  snapshot(force = false): InteractionsSignal | null {
    if (!this.changed && !force) return null;
    this.changed = false;
    const t = pageTime();
    return {
      kind: 'interactions',
      t,
      counts: { ...this.counts },
      timings: {
        firstInteractionMs: this.firstInteractionMs,
        dwellMs: t,
        meanKeyIntervalMs: this.keyIntervals > 0 ? Math.round(this.keyIntervalTotal / this.keyIntervals) : null,
      },
    };
  }

  private count(name: keyof Counts): void {
    const now = pageTime();
    const throttle = THROTTLE_MS[name];
    const last = this.lastCounted[name];
    if (throttle !== undefined && last !== undefined && now - last < throttle) return;
    this.lastCounted[name] = now;
    this.counts[name] += 1;
    this.firstInteractionMs ??= now;
    this.changed = true;
  }

  private key(): void {
    const now = pageTime();
    if (this.lastKeyAt !== null && now - this.lastKeyAt <= MAX_KEY_INTERVAL_MS) {
      this.keyIntervalTotal += now - this.lastKeyAt;
      this.keyIntervals += 1;
    }
    this.lastKeyAt = now;
    this.count('keys');
  }
}
