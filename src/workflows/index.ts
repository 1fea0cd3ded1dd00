// Every workflow the worker runs. Deterministic code only: imports @temporalio/workflow (and the
// SDK's deterministic @temporalio/common for typed search attribute keys) and src/domain.
export { chargeReconciliationWorkflow } from './charge-reconciliation';
export {
  cancelUpdate,
  captureUpdate,
  challengeUpdate,
  evaluateUpdate,
  type OrderCommand,
  orderStateQuery,
  orderWorkflow,
} from './order';
export { refundWorkflow } from './refund';
export { orderStartSearchAttributes } from './search-attributes';
export {
  deliveriesAddedSignal,
  endpointWorkflowId,
  type WebhookEndpointInput,
  webhookEndpointWorkflow,
} from './webhook-endpoint';
