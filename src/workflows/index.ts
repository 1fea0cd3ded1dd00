// Every workflow the worker runs. Deterministic code only: imports @temporalio/workflow and src/domain.
export { type RescueWindowInput, rescueWindowWorkflow } from './rescue-window';
