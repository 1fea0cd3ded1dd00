import type { Operation } from '../registry';
import { dashboardOperations } from './dashboard';
import { identityOperations } from './identity';
import { merchantOperations } from './merchants';
import { onboardingOperations } from './onboarding';
import { orderSearchOperations } from './order-search';
import { orderOperations } from './orders';
import { partnerOperations } from './partners';
import { referenceOperations } from './reference';
import { adminReportOperations, reportOperations } from './reports';
import { webhookToolOperations } from './webhook-tools';
import { webhookOperations } from './webhooks';

/** Every operation of the API, once (their first tags' order is the reference's). A route the Koa app serves must be here (test/unit/openapi.test.ts). */
export const OPERATIONS: Operation[] = [
  ...orderOperations,
  ...orderSearchOperations,
  ...reportOperations,
  ...identityOperations,
  ...partnerOperations,
  ...adminReportOperations,
  ...merchantOperations,
  ...onboardingOperations,
  ...webhookOperations,
  ...webhookToolOperations,
  ...dashboardOperations,
  ...referenceOperations,
];
