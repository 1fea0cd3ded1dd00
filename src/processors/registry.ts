import type { Logger } from '../logger';
import type { ProcessorName, ProcessorPort } from './port';
import { createSandboxAdapter } from './sandbox-adapter';
import type { ProcessorSettings } from './settings';
import { createStripeAdapter } from './stripe-adapter';
import { isStripeAuthorization } from './stripe-amounts';

export interface Processors {
  /**
   * The processor that charges for a merchant: its `processor` setting, else the sandbox
   * simulator (which answers "unavailable" outside the sandbox, so production without a
   * processor answers 503002). Undefined when the chosen processor has no credentials.
   */
  forMerchant(choice: ProcessorName | null): ProcessorPort | undefined;
  /**
   * The processor that issued an authorization: capture, void and refund go back to it even if
   * the merchant has changed processors since. Throws when it is no longer configured (the
   * activity is retried until its credentials are restored; the money is there).
   */
  forAuthorization(authorizationId: string): ProcessorPort;
}

export function createProcessors(deps: {
  environment: string;
  settings: ProcessorSettings;
  logger?: Logger;
}): Processors {
  const sandbox = createSandboxAdapter(deps.environment);
  const stripe = deps.settings.stripe ? createStripeAdapter(deps.settings.stripe, deps.logger) : undefined;
  return {
    forMerchant(choice) {
      if (choice !== 'stripe') return sandbox;
      if (!stripe)
        deps.logger?.error({ processor: 'stripe' }, 'merchant set to Stripe but STRIPE_SECRET_KEY is not set');
      return stripe;
    },
    forAuthorization(authorizationId) {
      if (!isStripeAuthorization(authorizationId)) return sandbox;
      if (!stripe) throw new Error('a Stripe authorization, but STRIPE_SECRET_KEY is not set: cannot reach Stripe');
      return stripe;
    },
  };
}
