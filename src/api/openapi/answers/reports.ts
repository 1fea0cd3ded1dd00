import { z } from 'zod';

/** Figures of a set of orders (src/reports/rescue-report.ts; definitions in docs/reports.md). */
const figures = {
  evaluated: z.number().int().describe('Orders whose first evaluate decided (any status but Draft).'),
  approved: z
    .number()
    .int()
    .describe('CIT and Sync MIT orders the processor approved (at evaluate or after a challenge).'),
  declined: z.number().int().describe('Orders declined outright (status Declined).'),
  submitted: z.number().int().describe('Async MIT orders their evaluate answered SUBMITTED.'),
  rescued: z.number().int().describe('Submitted orders completed by a retry charge.'),
  expired: z.number().int().describe('Submitted orders whose window or retry budget ended the rescue.'),
  recovered: z
    .array(z.looseObject({ currency: z.string(), amount: z.number().int().describe('Minor units.') }))
    .describe('Captured amount of the rescued orders, per currency (alphabetical; currencies with none left out).'),
  rescueRate: z.number().nullable().describe('rescued / submitted; null when none was submitted.'),
  attemptsPerRescue: z.number().nullable().describe('Charge attempts of the rescued orders / rescued; null when none.'),
  medianTimeToRescueSeconds: z
    .number()
    .int()
    .nullable()
    .describe('Median of creation to completion of the rescued orders, in whole seconds; null when none.'),
};

export const reportFigures = z.looseObject(figures).meta({ id: 'RescueFigures' });

export const openRescue = z
  .looseObject({
    orderId: z.uuid(),
    merchantId: z.uuid().optional().describe("The operator's report only."),
    externalOrderId: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    attempts: z.number().int().describe('Charge attempts made so far.'),
    nextAttemptAt: z.iso
      .datetime({ offset: true })
      .describe("The schedule's next retry, or the window's end (a card's retry budget may hold it later)."),
  })
  .meta({ id: 'OpenRescue' });

/** GET /v1/reports/rescues and GET /v1/admin/reports/rescues (format=json). */
export const rescueReport = z
  .looseObject({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    groupBy: z.enum(['day', 'declineCode', 'flow', 'currency']),
    totals: reportFigures,
    groups: z
      .array(
        z.looseObject({
          key: z.string().describe('UTC day (YYYY-MM-DD), decline code ("" for none), flow or currency.'),
          ...figures,
        }),
      )
      .describe('In key order (days ascending); groups without orders are left out.'),
    openRescues: z.looseObject({
      count: z.number().int().describe('Every open rescue of the range.'),
      items: z.array(openRescue).describe('Soonest next attempt first, at most 100.'),
    }),
  })
  .meta({ id: 'RescueReport' });
