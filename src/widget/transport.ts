import type { WidgetBatch, WidgetSignal } from '../domain/widget-signals';

export interface TransportLimits {
  maxSignalsPerBatch: number;
  maxBodyBytes: number;
}

/**
 * Sends batches of signals to the service: navigator.sendBeacon with a text/plain string (it
 * survives page unload and needs no CORS preflight), else fetch with keepalive. A batch carries
 * the senseKey and bound order id current when it is sent, so the caller flushes before it
 * rotates the key. Batches are split to stay under the service's count and size limits.
 */
export class Transport {
  private queue: WidgetSignal[] = [];

  constructor(
    private readonly endpoint: string,
    private readonly limits: TransportLimits,
    private readonly session: () => { senseKey: string; externalOrderId: string | null },
  ) {}

  push(signal: WidgetSignal): void {
    this.queue.push(signal);
    if (this.queue.length >= this.limits.maxSignalsPerBatch) this.flush();
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Sends what is queued; with `bind`, also an empty batch that only binds the order id. */
  flush(bind = false): void {
    const { senseKey, externalOrderId } = this.session();
    const signals = this.queue;
    this.queue = [];
    if (signals.length === 0 && !(bind && externalOrderId !== null)) return;
    const encoder = new TextEncoder();
    let batch: WidgetSignal[] = [];
    const send = () => {
      const body: WidgetBatch = { v: 1, senseKey, externalOrderId, signals: batch };
      this.send(JSON.stringify(body));
      batch = [];
    };
    for (const signal of signals) {
      // bytes of the signals array, plus room for the envelope (key, order id up to 200 characters)
      const size = encoder.encode(JSON.stringify([...batch, signal])).length + 1024;
      if (batch.length > 0 && (batch.length >= this.limits.maxSignalsPerBatch || size > this.limits.maxBodyBytes)) {
        send();
      }
      batch.push(signal);
    }
    send();
  }

  private send(body: string): void {
    try {
      if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(this.endpoint, body)) return;
    } catch {
      // sendBeacon refused (queue full, blocked): fetch below
    }
    fetch(this.endpoint, {
      method: 'POST',
      body,
      keepalive: true,
      mode: 'cors',
      credentials: 'omit',
      headers: { 'content-type': 'text/plain' },
    }).catch(() => {
      // signals are best effort: a lost batch only weakens the score
    });
  }
}
