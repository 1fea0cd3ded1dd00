import type { SessionStore } from './session-store';
import { asUuid, uuid } from './uuid';

/** sessionStorage keys (interface: "Browser session storage"). */
export const SENSE_KEY_STORAGE = 'fc_sk';
export const ORDER_ID_STORAGE = 'fc_eoi';
/** Query parameters that carry a senseKey across domains. */
const QUERY_KEYS = ['senseKey', SENSE_KEY_STORAGE];

/**
 * The senseKey and the externalOrderId bound to it. On page load a `senseKey` or `fc_sk` query
 * parameter (a UUID) overrides the stored key; a key that changes that way drops the order id
 * bound to the old one. Without either, a new key is made.
 */
export class SenseKeys {
  constructor(
    private readonly store: SessionStore,
    search: string,
  ) {
    const params = new URLSearchParams(search);
    const fromQuery = QUERY_KEYS.map((name) => asUuid(params.get(name))).find((key) => key !== null) ?? null;
    const stored = asUuid(store.get(SENSE_KEY_STORAGE));
    if (fromQuery && fromQuery !== stored) {
      store.set(SENSE_KEY_STORAGE, fromQuery);
      store.remove(ORDER_ID_STORAGE);
    } else if (!stored) {
      store.set(SENSE_KEY_STORAGE, uuid());
    }
  }

  /** The current key, from sessionStorage first, else memory; a fresh one if both lost it. */
  current(): string {
    const key = asUuid(this.store.get(SENSE_KEY_STORAGE));
    if (key) return key;
    const made = uuid();
    this.store.set(SENSE_KEY_STORAGE, made);
    return made;
  }

  externalOrderId(): string | null {
    return this.store.get(ORDER_ID_STORAGE);
  }

  /**
   * Binds an order id. A different order than the one already bound gets a new senseKey (its
   * signals must not mix with the previous order's); the first binding keeps the key, whose
   * signals so far belong to this order. Returns whether the key rotated.
   */
  bind(orderId: string): boolean {
    const previous = this.externalOrderId();
    if (previous === orderId) return false;
    const rotate = previous !== null;
    if (rotate) this.store.set(SENSE_KEY_STORAGE, uuid());
    this.store.set(ORDER_ID_STORAGE, orderId);
    return rotate;
  }
}
