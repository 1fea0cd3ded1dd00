import { z } from 'zod';
import { PROCESSOR_NAMES } from '../../../domain/merchant-settings';

/**
 * Merchant settings, sites and the widget's configuration as the routes answer them
 * (src/api/routes/merchants.ts, site-widget.ts, widget.ts; siteView in src/db/repositories).
 */
const uuid = z.uuid();
const instant = z.iso.datetime({ offset: true });

export const merchantSettings = z
  .looseObject({
    mid: uuid,
    defaultExpiryHours: z.number().int(),
    syncMitWindowHours: z.number().int(),
    mitEvaluation: z.enum(['async', 'sync']),
    authorizeCapability: z.boolean(),
    technicalContactEmail: z.string().nullable(),
    captureWindowMinutes: z.number().int(),
    processor: z.enum(PROCESSOR_NAMES).nullable().describe("null: the environment's default."),
  })
  .meta({ id: 'MerchantSettings' });

export const site = z
  .looseObject({ siteId: uuid, mid: uuid, name: z.string(), allowedOrigins: z.array(z.string()), createdAt: instant })
  .meta({ id: 'Site' });

export const siteList = z.object({ mid: uuid, data: z.array(site) }).meta({ id: 'SiteList' });

const collection = z.looseObject({
  collect: z.looseObject({
    fingerprint: z.boolean(),
    interactions: z.boolean(),
    emailCapture: z.boolean(),
    formScraping: z.boolean(),
    routeChanges: z.boolean(),
  }),
  selectors: z.looseObject({ email: z.array(z.string()), forms: z.array(z.string()) }),
});

export const siteWidget = collection
  .extend({
    mid: uuid,
    siteId: uuid,
    widgetUrl: z.string().describe('Where the loader script is served.'),
    snippet: z.string().describe("The HTML to paste into the site's pages."),
  })
  .meta({ id: 'SiteWidget' });

export const widgetConfig = collection
  .extend({
    mid: uuid,
    siteId: uuid,
    limits: z.looseObject({
      flushIntervalMs: z.number().int(),
      maxSignalsPerBatch: z.number().int(),
      maxBodyBytes: z.number().int(),
    }),
  })
  .meta({ id: 'WidgetConfig', description: 'What the widget collects on this site, and its batch limits.' });

export const signalsAccepted = z
  .object({ senseKey: z.string(), accepted: z.number().int().describe('Signals kept from this batch.') })
  .meta({ id: 'SignalsAccepted' });
