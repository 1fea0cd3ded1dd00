/**
 * Order statuses. The numbers are the public numbering of the system the interface describes
 * (Cancelled = 2 and Capturerequired = 5 are fixed by it); Declined = 8 is our extension, for an
 * order whose evaluate was declined outright (docs/orders.md).
 */
export const ORDER_STATUS = {
  Draft: 0,
  Onhold: 1,
  Cancelled: 2,
  Problem: 3,
  Processing: 4,
  Capturerequired: 5,
  Returned: 6,
  Completed: 7,
  Declined: 8,
} as const;

export type OrderStatusName = keyof typeof ORDER_STATUS;

/**
 * `statusName` of the order lookup: the status as the one upper-case word FlexCharge clients read.
 * A completed order is `SUCCESS`, the word ActiveMerchant's `inquire` counts as a success (it does
 * not know `COMPLETED`; docs/compatibility.md); an order waiting for its challenge is `CHALLENGE`,
 * the word evaluate answered for it (which `inquire` counts as a success too, not `ONHOLD`);
 * every other status is its name in upper case.
 */
export const STATUS_WORD: Readonly<Record<OrderStatusName, string>> = {
  Draft: 'DRAFT',
  Onhold: 'CHALLENGE',
  Cancelled: 'CANCELLED',
  Problem: 'PROBLEM',
  Processing: 'PROCESSING',
  Capturerequired: 'CAPTUREREQUIRED',
  Returned: 'RETURNED',
  Completed: 'SUCCESS',
  Declined: 'DECLINED',
};

export type Outcome = 'APPROVED' | 'DECLINED' | 'CHALLENGE' | 'SUBMITTED' | 'CAPTUREREQUIRED';

/** CIT: customer initiated. SYNC_MIT / ASYNC_MIT: merchant initiated, by the merchant's setting. */
export type Flow = 'CIT' | 'SYNC_MIT' | 'ASYNC_MIT';

/** The outcome an order in this status answers to a further evaluate (or shows on lookup). */
export function outcomeForStatus(status: OrderStatusName): Outcome {
  switch (status) {
    case 'Completed':
    case 'Returned':
      return 'APPROVED';
    case 'Capturerequired':
      return 'CAPTUREREQUIRED';
    case 'Processing':
    case 'Draft':
      return 'SUBMITTED';
    case 'Onhold':
      return 'CHALLENGE';
    default:
      return 'DECLINED';
  }
}
