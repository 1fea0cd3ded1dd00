// Every workflow the worker runs. Deterministic code only: imports @temporalio/workflow (and the
// SDK's deterministic @temporalio/common for typed search attribute keys) and src/domain.
export {
  cancelUpdate,
  captureUpdate,
  challengeUpdate,
  evaluateUpdate,
  orderStateQuery,
  orderWorkflow,
  refundUpdate,
} from './order';
export { type RescueWindowInput, rescueWindowWorkflow } from './rescue-window';
export { type WebhookDeliveryInput, webhookDeliveryWorkflow } from './webhook-delivery';
