import type { WidgetSignal } from '../domain/widget-signals';
import { pageTime } from './clock';
import { matchingSelector, queryAll } from './selectors';
import { sha256Hex } from './sha256';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * E-mail capture at the site's selectors: when such an input changes or loses focus (and when
 * the page or route is scanned), its value, trimmed and lowercased, is hashed with SHA-256 in
 * the page; only the hash is sent, once per distinct address.
 */
export class EmailCapture {
  private readonly sent = new Set<string>();

  constructor(
    private readonly selectors: readonly string[],
    private readonly emit: (signal: WidgetSignal) => void,
  ) {}

  start(doc: Document): void {
    const handler = (event: Event) => {
      if (event.target instanceof Element) void this.consider(event.target);
    };
    doc.addEventListener('change', handler, true);
    doc.addEventListener('focusout', handler, true);
  }

  /** Reads the matching inputs already on the page (a prefilled address, a new route). */
  scan(doc: Document): void {
    for (const selector of this.selectors) for (const element of queryAll(doc, selector)) void this.consider(element);
  }

  private async consider(element: Element): Promise<void> {
    if (!(element instanceof HTMLInputElement) || !matchingSelector(element, this.selectors)) return;
    const address = element.value.trim().toLowerCase();
    if (address.length > 254 || !EMAIL.test(address)) return;
    const hash = await sha256Hex(address);
    if (!hash || this.sent.has(hash)) return;
    this.sent.add(hash);
    this.emit({ kind: 'email', t: pageTime(), hash });
  }
}
