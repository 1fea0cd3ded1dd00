import { Collection } from './collection';
import { computeFingerprint, type Fingerprint } from './fingerprint';
import { InteractionTracker } from './interactions';
import { fetchConfig, type RemoteConfig } from './remote-config';
import { SenseKeys } from './sense-key';
import { SessionStore } from './session-store';
import { uuid } from './uuid';

/** The longest order id the service accepts on a batch (and on evaluate). */
const MAX_ORDER_ID = 200;

export interface OrderIdProps {
  orderId?: unknown;
  externalOrderId?: unknown;
}

/** A string or number argument, trimmed (as evaluate trims the externalOrderId it is matched with). */
function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * The widget behind the global `fc`: the senseKey and its order binding (always available), and,
 * once `init` names a site whose configuration the service hands out, the collection it asks for.
 */
export class Widget {
  mid: string | null = null;
  siteId: string | null = null;
  isStarted = false;

  private readonly keys: SenseKeys;
  private readonly interactions = new InteractionTracker();
  private fingerprint: Promise<Fingerprint | null> = Promise.resolve(null);
  private collection: Collection | null = null;
  private bindPending = false;

  constructor(
    private readonly win: Window,
    private readonly api: string | null,
  ) {
    this.keys = new SenseKeys(new SessionStore(() => win.sessionStorage), win.location.search);
  }

  get senseKey(): string {
    return this.keys.current();
  }

  get externalOrderId(): string | null {
    return this.keys.externalOrderId();
  }

  /** Queue-style commands: `fc('init', MID, siteId)`, and the direct methods by name. */
  command(name: unknown, args: unknown[]): unknown {
    switch (name) {
      case 'init':
        return this.init(args[0], args[1]);
      case 'setOrderId':
        return this.setOrderId(args[0] as OrderIdProps);
      case 'createOrderId':
        return this.createOrderId();
      case 'getSenseKey':
        return this.getSenseKey();
      default:
        return undefined;
    }
  }

  /** Once per page; later calls are ignored. Without a MID (or siteId) nothing starts and nothing is sent. */
  init(mid: unknown, siteId: unknown): void {
    if (this.isStarted) return;
    const merchant = text(mid);
    const site = text(siteId);
    if (!merchant || !site) {
      // biome-ignore lint/suspicious/noConsole: the integrator's only hint that the snippet is incomplete
      console.warn(`fc: init needs the ${merchant ? 'siteId' : 'MID'}; the widget did not start`);
      return;
    }
    this.mid = merchant;
    this.siteId = site;
    this.isStarted = true;
    this.interactions.start(this.win.document);
    this.fingerprint = computeFingerprint(this.win).catch(() => null);
    if (!this.api) return;
    void fetchConfig(this.api, merchant, site).then((config) => {
      if (config) this.start(config);
    });
  }

  /** Binds the order (externalOrderId wins over orderId); a changed order rotates the senseKey. */
  setOrderId(props: OrderIdProps | undefined): string | undefined {
    if (!this.isStarted || typeof props !== 'object' || props === null) return undefined;
    const orderId = text(props.externalOrderId) ?? text(props.orderId);
    if (!orderId || orderId.length > MAX_ORDER_ID) return undefined;
    if (orderId !== this.keys.externalOrderId()) {
      this.collection?.flush(); // what was collected so far belongs to the key it was collected under
      if (this.keys.bind(orderId)) this.collection?.seedNewKey();
      if (this.collection) this.collection.flush(true);
      else this.bindPending = true;
    }
    return this.keys.current();
  }

  getSenseKey(): string {
    return this.keys.current();
  }

  createOrderId(): string {
    const orderId = uuid();
    this.setOrderId({ externalOrderId: orderId });
    return orderId;
  }

  private start(config: RemoteConfig): void {
    const endpoint = `${this.api}/v1/widget/${encodeURIComponent(this.mid ?? '')}/${encodeURIComponent(this.siteId ?? '')}/signals`;
    this.collection = new Collection(this.win, endpoint, config, this.keys, this.interactions, this.fingerprint);
    this.collection.start(this.bindPending);
    this.bindPending = false;
  }
}
