import { z } from 'zod';

/**
 * What the widget sends to POST /v1/widget/{mid}/{siteId}/signals: one batch of signals under one
 * senseKey. Strict: an unknown field or kind is junk and refused whole. No raw trait, keystroke,
 * e-mail or form value fits in it; they travel as SHA-256 hashes, counts and lengths.
 */
export const WIDGET_LIMITS = {
  /** Largest signals body; sendBeacon payloads are small and this keeps junk cheap to refuse. */
  maxBodyBytes: 16 * 1024,
  maxSignalsPerBatch: 50,
  /** How often the widget sends what it collected (it also sends on page hide and on setOrderId). */
  flushIntervalMs: 2000,
} as const;

/**
 * Per site and senseKey: one page sends a batch every couple of seconds at most, plus one on
 * setOrderId, route changes and page hide; 30 at once covers a burst of those.
 */
export const WIDGET_SENSE_KEY_RATE = { perSecond: 1, burst: 30 } as const;

/**
 * Per site and client address, before the site's own budget: anyone can send a site's Origin
 * header from a script, so one sender must not spend the budget of the site's shoppers.
 */
export const WIDGET_ADDRESS_RATE = { perSecond: 20, burst: 200 } as const;

/** A senseKey: a UUID, any version (the widget makes v4; a query-string key is taken as given). */
export const SENSE_KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const ms = z
  .number()
  .int()
  .min(0)
  .max(7 * 86_400_000);
const count = z.number().int().min(0).max(10_000_000);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex SHA-256');

const fingerprint = z
  .object({ kind: z.literal('fingerprint'), t: ms, hash: sha256, traits: z.number().int().min(1).max(64) })
  .strict();

const interactions = z
  .object({
    kind: z.literal('interactions'),
    t: ms,
    counts: z
      .object({
        clicks: count,
        keys: count,
        pointerMoves: count,
        scrolls: count,
        touches: count,
        focusChanges: count,
        pastes: count,
        copies: count,
      })
      .strict(),
    timings: z.object({ firstInteractionMs: ms.nullable(), dwellMs: ms, meanKeyIntervalMs: ms.nullable() }).strict(),
  })
  .strict();

const email = z.object({ kind: z.literal('email'), t: ms, hash: sha256 }).strict();

const formField = z
  .object({
    name: z.string().max(64),
    type: z.string().max(32),
    filled: z.boolean(),
    length: count,
    hash: sha256.nullable(),
  })
  .strict();
const form = z
  .object({ kind: z.literal('form'), t: ms, selector: z.string().max(200), fields: z.array(formField).max(30) })
  .strict();

const route = z
  .object({
    kind: z.literal('route'),
    t: ms,
    path: z.string().max(256),
    trigger: z.enum(['load', 'pushState', 'replaceState', 'popstate']),
  })
  .strict();

export const widgetSignal = z.discriminatedUnion('kind', [fingerprint, interactions, email, form, route]);

export const widgetBatch = z
  .object({
    v: z.literal(1),
    senseKey: z.string().regex(SENSE_KEY_PATTERN, 'must be a lowercase UUID'),
    externalOrderId: z.string().min(1).max(200).nullable(),
    signals: z.array(widgetSignal).max(WIDGET_LIMITS.maxSignalsPerBatch),
  })
  .strict()
  .refine((b) => b.signals.length > 0 || b.externalOrderId !== null, {
    path: ['signals'],
    message: 'an empty batch must bind an externalOrderId',
  });

export type WidgetSignal = z.infer<typeof widgetSignal>;
export type WidgetBatch = z.infer<typeof widgetBatch>;
