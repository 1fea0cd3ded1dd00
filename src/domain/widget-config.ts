import { z } from 'zod';

/**
 * What the widget collects on a site, decided by the service per site (the page makes no calls
 * for it). A site that was never configured gets DEFAULT_WIDGET_CONFIG: everything on except
 * form scraping, which needs selectors naming the fields worth reading.
 */
export interface WidgetConfig {
  collect: {
    fingerprint: boolean;
    interactions: boolean;
    emailCapture: boolean;
    formScraping: boolean;
    routeChanges: boolean;
  };
  selectors: {
    /** Inputs whose value is an e-mail address; only its SHA-256 leaves the page. */
    email: string[];
    /** Fields (or forms, meaning their fields) to scrape; only names, lengths and hashes leave the page. */
    forms: string[];
  };
}

export const DEFAULT_EMAIL_SELECTORS = ['input[type="email"]', 'input[autocomplete="email"]', 'input[name="email"]'];

export const DEFAULT_WIDGET_CONFIG: WidgetConfig = {
  collect: { fingerprint: true, interactions: true, emailCapture: true, formScraping: false, routeChanges: true },
  selectors: { email: DEFAULT_EMAIL_SELECTORS, forms: [] },
};

// A CSS selector for the page's querySelectorAll (the widget skips one the browser rejects);
// braces and markup are refused here as they are never part of a selector.
const selector = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((v) => !/[<{}]/.test(v), 'must be a CSS selector (no <, { or })');
const selectors = z.array(selector).max(10);

/** A PUT changes what it names; at least one switch or selector list. */
export const widgetConfigUpdate = z
  .object({
    collect: z
      .object({
        fingerprint: z.boolean(),
        interactions: z.boolean(),
        emailCapture: z.boolean(),
        formScraping: z.boolean(),
        routeChanges: z.boolean(),
      })
      .partial()
      .strict()
      .optional(),
    selectors: z.object({ email: selectors, forms: selectors }).partial().strict().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v.collect ?? {}).length + Object.keys(v.selectors ?? {}).length > 0, {
    message: 'name at least one collection switch or selector list to change',
  });

export type WidgetConfigUpdate = z.infer<typeof widgetConfigUpdate>;

export function applyWidgetConfigUpdate(current: WidgetConfig, change: WidgetConfigUpdate): WidgetConfig {
  return {
    collect: { ...current.collect, ...change.collect },
    selectors: { ...current.selectors, ...change.selectors },
  };
}
