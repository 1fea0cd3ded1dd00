import { containsCardNumber } from '../domain/sensitive-data';
import type { WidgetSignal } from '../domain/widget-signals';
import { pageTime } from './clock';
import { matchingSelector, queryAll } from './selectors';
import { sha256Hex } from './sha256';

type FormSignal = Extract<WidgetSignal, { kind: 'form' }>;
type FieldControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const MAX_FIELDS = 30;
const SKIPPED_TYPES = new Set(['password', 'hidden', 'file', 'submit', 'button', 'reset', 'image']);
// Card data and secrets are never read, not even hashed: by the field's name or id (the usual
// spellings of card number, security code and expiry: cc_number, security_code, exp_month, cc_cid),
// its autocomplete, or a value shaped like one (a card number, 3-4 digits, MM/YY), whatever the name.
const SENSITIVE_NAME =
  /card|cc[-_]?(num|cid|cvv|cvc|csc|exp|code)|cvv|cvc|csc|cvn|cid$|security[-_]?code|expir|exp[-_]?(date|month|year|mm|yy)|iban|ssn|passw|secret|token|otp|pin$/i;
const CODE_OR_EXPIRY = /^(\d{3,4}|(0?[1-9]|1[0-2]) ?[/-] ?(\d{2}|\d{4}))$/;

/** A value a card field could hold, under any name: never hashed (a 3-digit code has 1,000 hashes). */
function isCardShaped(value: string): boolean {
  return CODE_OR_EXPIRY.test(value) || containsCardNumber(value);
}

function isControl(element: Element): element is FieldControl {
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLSelectElement ||
    element instanceof HTMLTextAreaElement
  );
}

function isSensitive(control: FieldControl): boolean {
  if (control instanceof HTMLInputElement && SKIPPED_TYPES.has(control.type)) return true;
  const autocomplete = control.getAttribute('autocomplete') ?? '';
  if (/cc-|password|one-time-code/.test(autocomplete)) return true;
  return SENSITIVE_NAME.test(control.name) || SENSITIVE_NAME.test(control.id);
}

/** The controls a selector names: a form (or any container) stands for the controls inside it. */
function controlsOf(doc: Document, selector: string): FieldControl[] {
  const controls: FieldControl[] = [];
  for (const element of queryAll(doc, selector)) {
    if (isControl(element)) controls.push(element);
    else for (const inner of queryAll(element, 'input, select, textarea')) if (isControl(inner)) controls.push(inner);
  }
  return controls.filter((control) => !isSensitive(control)).slice(0, MAX_FIELDS);
}

function normalisedValue(control: FieldControl): string {
  if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
    return control.checked ? control.value || 'on' : '';
  }
  return control.value.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Form scraping at the site's selectors: for each field, its name, type, whether it is filled,
 * the length of its value and a SHA-256 of the normalised value. Never the value itself; never
 * card, password or secret fields, nor a field whose value is shaped like card data. Sent again only when something changed.
 */
export class FormScraper {
  private readonly lastSent = new Map<string, string>();
  private dirty = true;

  constructor(
    private readonly selectors: readonly string[],
    private readonly emit: (signal: WidgetSignal) => void,
  ) {}

  start(doc: Document): void {
    doc.addEventListener(
      'change',
      (event) => {
        if (event.target instanceof Element && this.concerns(event.target)) this.dirty = true;
      },
      true,
    );
    doc.addEventListener('submit', () => void this.scrape(doc, true), true);
  }

  /** Scrapes the selectors when a field changed since last time (or when forced: a new route). */
  async scrape(doc: Document, force = false): Promise<void> {
    if (!this.dirty && !force) return;
    this.dirty = false;
    for (const selector of this.selectors) {
      const controls = controlsOf(doc, selector).filter((control) => !isCardShaped(normalisedValue(control)));
      if (controls.length === 0) continue;
      const fields: FormSignal['fields'] = await Promise.all(
        controls.map(async (control) => {
          const value = normalisedValue(control);
          return {
            name: (control.name || control.id).slice(0, 64),
            type: (control instanceof HTMLInputElement ? control.type : control.tagName.toLowerCase()).slice(0, 32),
            filled: value !== '',
            length: value.length,
            hash: value === '' ? null : await sha256Hex(value),
          };
        }),
      );
      const digest = JSON.stringify(fields);
      if (this.lastSent.get(selector) === digest) continue;
      this.lastSent.set(selector, digest);
      this.emit({ kind: 'form', t: pageTime(), selector: selector.slice(0, 200), fields });
    }
  }

  private concerns(element: Element): boolean {
    if (matchingSelector(element, this.selectors)) return true;
    return this.selectors.some((selector) => {
      try {
        return element.closest(selector) !== null;
      } catch {
        return false;
      }
    });
  }
}
