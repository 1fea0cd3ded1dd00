import { type OrderIdProps, Widget } from './widget';

/** The snippet's stub: `fc(...)` before the script loaded pushes its arguments onto `fc.q`. */
interface FcStub {
  (...args: unknown[]): unknown;
  q?: ArrayLike<unknown>[];
}

export interface Fc {
  (command: string, ...args: unknown[]): unknown;
  setOrderId(props: OrderIdProps): string | undefined;
  getSenseKey(): string;
  createOrderId(): string;
  readonly senseKey: string;
  readonly externalOrderId: string | null;
  readonly mid: string | null;
  readonly siteId: string | null;
  readonly isStarted: boolean;
}

declare global {
  interface Window {
    fc?: Fc | FcStub;
  }
}

const LOADED = '__fcWidget';

/**
 * Replaces the snippet's stub with the widget and replays the queued calls in order. A second
 * copy of the script on the same page leaves the first in place.
 */
export function installFc(win: Window, api: string | null): void {
  const existing = win.fc as (FcStub & { [LOADED]?: true }) | undefined;
  if (existing?.[LOADED]) return;
  const queued = Array.from(existing?.q ?? []);
  const widget = new Widget(win, api);

  const fc = ((command: string, ...args: unknown[]) => widget.command(command, args)) as Fc;
  // A setter that ignores the value: assigning one of these in the page's strict-mode code must
  // not throw (a getter alone would, and break the merchant's checkout script).
  const readOnly = (get: () => unknown) => ({ get, set: () => {}, enumerable: true });
  Object.defineProperties(fc, {
    setOrderId: { value: (props: OrderIdProps) => widget.setOrderId(props) },
    getSenseKey: { value: () => widget.getSenseKey() },
    createOrderId: { value: () => widget.createOrderId() },
    senseKey: readOnly(() => widget.senseKey),
    externalOrderId: readOnly(() => widget.externalOrderId),
    mid: readOnly(() => widget.mid),
    siteId: readOnly(() => widget.siteId),
    isStarted: readOnly(() => widget.isStarted),
    [LOADED]: { value: true },
  });
  win.fc = fc;
  for (const args of queued) widget.command(args[0], Array.prototype.slice.call(args, 1));
}
