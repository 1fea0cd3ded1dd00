export {
  cancelUpdate,
  captureUpdate,
  challengeUpdate,
  evaluateUpdate,
  type OrderCommand,
  orderStateQuery,
} from './messages';
export { orderWorkflow } from './workflow';
