// The benchmarks' workflows module: every production workflow plus the bench-only floor, so the
// production bundle (src/workflows) carries no bench code.
export * from '../../src/workflows';
export { benchFloorWorkflow, floorUpdate } from './floor-workflow';
