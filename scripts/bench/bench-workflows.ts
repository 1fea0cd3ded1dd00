// The benchmarks' workflows module: every production workflow plus the bench-only floors, so the
// production bundle (src/workflows) carries no bench code.
export * from '../../src/workflows';
export * from './floor-workflow';
