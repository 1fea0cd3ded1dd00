import type { WidgetSignal } from '../domain/widget-signals';
import { pageTime } from './clock';
import { EmailCapture } from './email-capture';
import type { Fingerprint } from './fingerprint';
import { FormScraper } from './form-scrape';
import type { InteractionTracker } from './interactions';
import type { RemoteConfig } from './remote-config';
import { type RouteTrigger, routePath, watchRoutes } from './route-watch';
import type { SenseKeys } from './sense-key';
import { Transport } from './transport';

/** After a route change, the new route's DOM is given this long to render before re-collection. */
const ROUTE_SETTLE_MS = 250;

/**
 * What the widget collects once the service has handed out a site's configuration: the signals
 * it asks for, batched to the signals endpoint under the current senseKey.
 */
export class Collection {
  private readonly transport: Transport;
  private emails: EmailCapture | null = null;
  private forms: FormScraper | null = null;

  constructor(
    private readonly win: Window,
    endpoint: string,
    private readonly config: RemoteConfig,
    keys: SenseKeys,
    private readonly interactions: InteractionTracker,
    private readonly fingerprint: Promise<Fingerprint | null>,
  ) {
    this.transport = new Transport(endpoint, config.limits, () => ({
      senseKey: keys.current(),
      externalOrderId: keys.externalOrderId(),
    }));
  }

  /** Starts every collector the configuration asks for; `bound`: an order was bound before. */
  start(bound: boolean): void {
    const doc = this.win.document;
    const { config, transport } = this;
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
    transport.flush(bound);
  }

  /** Sends what is queued; with `bind`, also an empty batch that only binds the order id. */
  flush(bind = false): void {
    this.transport.flush(bind);
  }

  /** A new senseKey starts with the device's fingerprint and the interactions so far. */
  seedNewKey(): void {
    this.sendFingerprint();
    this.snapshotInteractions(true);
  }

  private sendFingerprint(): void {
    if (!this.config.collect.fingerprint) return;
    void this.fingerprint.then((fingerprint) => {
      if (!fingerprint) return;
      this.transport.push({ kind: 'fingerprint', t: pageTime(), hash: fingerprint.hash, traits: fingerprint.traits });
      this.transport.flush();
    });
  }

  private snapshotInteractions(force = false): void {
    if (!this.config.collect.interactions) return;
    const snapshot = this.interactions.snapshot(force);
    if (snapshot) this.transport.push(snapshot);
  }

  /** Periodic and on page hide: what changed since the last batch. */
  private tick(): void {
    this.snapshotInteractions();
    this.transport.flush();
    void this.forms?.scrape(this.win.document).then(() => this.transport.flush());
  }

  private routeChanged(trigger: RouteTrigger): void {
    this.transport.push({ kind: 'route', t: pageTime(), path: routePath(this.win.location.pathname), trigger });
    this.win.setTimeout(() => this.recollect(), ROUTE_SETTLE_MS);
  }

  /** Collects again what a page shows: at load, and on every single-page route change. */
  private recollect(): void {
    const doc = this.win.document;
    this.emails?.scan(doc);
    this.snapshotInteractions(true);
    void (this.forms?.scrape(doc, true) ?? Promise.resolve()).then(() => this.transport.flush());
  }
}

function whenReady(doc: Document, run: () => void): void {
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}
