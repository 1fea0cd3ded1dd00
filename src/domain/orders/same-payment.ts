/**
 * Whether a further evaluate for an existing order is the same payment. One rule, read by the
 * order workflow (its evaluate validator: the order's single writer, so concurrent first evaluates
 * cannot race past it) and by the API for an order whose workflow has closed (the read model).
 */

/** The request fields a further evaluate may not change, in the order they are reported. */
export type PaymentField = 'transaction.amount' | 'transaction.currency' | 'paymentMethod';

export interface PaymentTerms {
  amount: number;
  currency: string;
  attemptCount: number | null;
}

/**
 * The fields in which `request` is another payment than `order`: none when it is a new attempt
 * (an `attemptCount` above the order's, counting a missing one as the first attempt).
 * `sameCard` is decided by the caller (vault token or card fingerprint).
 */
export function paymentDifferences(order: PaymentTerms, request: PaymentTerms & { sameCard: boolean }): PaymentField[] {
  if (request.attemptCount !== null && request.attemptCount > (order.attemptCount ?? 1)) return [];
  const differs: PaymentField[] = [];
  if (request.amount !== order.amount) differs.push('transaction.amount');
  if (request.currency !== order.currency) differs.push('transaction.currency');
  if (!request.sameCard) differs.push('paymentMethod');
  return differs;
}
