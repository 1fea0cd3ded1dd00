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
  Object.defineProperties(fc, {
    setOrderId: { value: (props: OrderIdProps) => widget.setOrderId(props) },
    getSenseKey: { value: () => widget.getSenseKey() },
    createOrderId: { value: () => widget.createOrderId() },
    senseKey: { get: () => widget.senseKey, enumerable: true },
    externalOrderId: { get: () => widget.externalOrderId, enumerable: true },
    mid: { get: () => widget.mid, enumerable: true },
    siteId: { get: () => widget.siteId, enumerable: true },
    isStarted: { get: () => widget.isStarted, enumerable: true },
    [LOADED]: { value: true },
  });
  win.fc = fc;
  for (const args of queued) widget.command(args[0], Array.prototype.slice.call(args, 1));
}
