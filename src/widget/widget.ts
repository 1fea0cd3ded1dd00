import type { WidgetSignal } from '../domain/widget-signals';
import { pageTime } from './clock';
import { EmailCapture } from './email-capture';
import { computeFingerprint, type Fingerprint } from './fingerprint';
import { FormScraper } from './form-scrape';
import { InteractionTracker } from './interactions';
import { fetchConfig, type RemoteConfig } from './remote-config';
import { type RouteTrigger, routePath, watchRoutes } from './route-watch';
import { SenseKeys } from './sense-key';
import { SessionStore } from './session-store';
import { Transport } from './transport';
import { uuid } from './uuid';

/** The longest order id the service accepts on a batch (and on evaluate). */
const MAX_ORDER_ID = 200;
/** After a route change, the new route's DOM is given this long to render before re-collection. */
const ROUTE_SETTLE_MS = 250;

export interface OrderIdProps {
  orderId?: unknown;
  externalOrderId?: unknown;
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
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
  private config: RemoteConfig | null = null;
  private transport: Transport | null = null;
  private emails: EmailCapture | null = null;
  private forms: FormScraper | null = null;
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
      this.transport?.flush(); // what was collected so far belongs to the key it was collected under
      if (this.keys.bind(orderId)) this.seedNewKey();
      if (this.transport) this.transport.flush(true);
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
    const doc = this.win.document;
    this.config = config;
    const endpoint = `${this.api}/v1/widget/${encodeURIComponent(this.mid ?? '')}/${encodeURIComponent(this.siteId ?? '')}/signals`;
    const transport = new Transport(endpoint, config.limits, () => ({
      senseKey: this.keys.current(),
      externalOrderId: this.keys.externalOrderId(),
    }));
    this.transport = transport;
    const emit = (signal: WidgetSignal) => transport.push(signal);

    this.sendFingerprint();
    if (config.collect.emailCapture) {
      this.emails = new EmailCapture(config.selectors.email, emit);
      this.emails.start(doc);
    }
    if (config.collect.formScraping) {
      this.forms = new FormScraper(config.selectors.forms, emit);
      this.forms.start(doc);
    }
    if (config.collect.routeChanges) {
      emit({ kind: 'route', t: pageTime(), path: routePath(this.win.location.pathname), trigger: 'load' });
      watchRoutes(this.win, (trigger) => this.routeChanged(trigger));
    }
    whenReady(doc, () => this.recollect());
    this.win.setInterval(() => this.tick(), config.limits.flushIntervalMs);
    doc.addEventListener('visibilitychange', () => {
      if (doc.visibilityState === 'hidden') this.tick();
    });
    this.win.addEventListener('pagehide', () => this.tick());
    transport.flush(this.bindPending);
    this.bindPending = false;
  }

  /** A new senseKey starts with the device's fingerprint and the interactions so far. */
  private seedNewKey(): void {
    this.sendFingerprint();
    this.snapshotInteractions(true);
  }

  private sendFingerprint(): void {
    if (!this.config?.collect.fingerprint) return;
    void this.fingerprint.then((fingerprint) => {
      if (!fingerprint || !this.transport) return;
      this.transport.push({ kind: 'fingerprint', t: pageTime(), hash: fingerprint.hash, traits: fingerprint.traits });
      this.transport.flush();
    });
  }

  private snapshotInteractions(force = false): void {
    if (!this.config?.collect.interactions) return;
    const snapshot = this.interactions.snapshot(force);
    if (snapshot) this.transport?.push(snapshot);
  }

  /** Periodic and on page hide: what changed since the last batch. */
  private tick(): void {
    this.snapshotInteractions();
    this.transport?.flush();
    void this.forms?.scrape(this.win.document).then(() => this.transport?.flush());
  }

  private routeChanged(trigger: RouteTrigger): void {
    this.transport?.push({ kind: 'route', t: pageTime(), path: routePath(this.win.location.pathname), trigger });
    this.win.setTimeout(() => this.recollect(), ROUTE_SETTLE_MS);
  }

  /** Collects again what a page shows: at load, and on every single-page route change. */
  private recollect(): void {
    const doc = this.win.document;
    this.emails?.scan(doc);
    this.snapshotInteractions(true);
    void (this.forms?.scrape(doc, true) ?? Promise.resolve()).then(() => this.transport?.flush());
  }
}

function whenReady(doc: Document, run: () => void): void {
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}
