import { stripeAmount } from '../../src/processors/stripe-amounts';

/** Our ISO 4217 minor units against Stripe's (docs.stripe.com/currencies). */
describe('stripeAmount', () => {
  it.each([
    [2500, 'USD', 2500], // two decimals both
    [500, 'JPY', 500], // zero decimals both
    [5000, 'ISK', 500_000], // whole krónur: two decimals at Stripe
    [150_000, 'MGA', 1500], // two decimals in ISO, whole ariary at Stripe
    [5120, 'KWD', 5120], // three decimals both, last digit 0
  ])('%i %s is %i at Stripe', (ours, currency, stripes) => {
    expect(stripeAmount(ours, currency)).toBe(stripes);
  });

  it.each([
    [150_050, 'MGA'], // 1,500.50 ariary: Stripe takes whole ariary only
    [5124, 'KWD'], // Stripe takes three-decimal amounts to the nearest ten only
    [Number.MAX_SAFE_INTEGER, 'ISK'], // past exact integers once scaled
  ])('%i %s cannot be charged exactly at Stripe: undefined, never rounded', (ours, currency) => {
    expect(stripeAmount(ours, currency)).toBeUndefined();
  });
});
