/**
 * The layers of docs/architecture.md, checked by `npm run lint` (so by `npm test`): a change that
 * breaks one fails before any test runs. Dependencies are read from the source, type-only imports
 * included (this project's TypeScript 7 has no compiler API for dependency-cruiser to tell them
 * apart).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: split out what both sides need.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'workflows-deterministic',
      severity: 'error',
      comment:
        'Workflow code runs in the deterministic sandbox: it imports only src/workflows, src/domain, @temporalio/workflow and @temporalio/common, and the activity modules for their types (proxyActivities<typeof ...>): a value import of activity code would pull Node modules in, which the workflow bundler refuses, so the tests that bundle the workflows catch it.',
      from: { path: '^src/workflows/' },
      to: { pathNot: ['^src/(workflows|domain|activities)/', '@temporalio/(workflow|common)/'] },
    },
    {
      name: 'activities-not-workflows',
      severity: 'error',
      comment: 'Activities never import workflow code.',
      from: { path: '^src/activities/' },
      to: { path: '^src/workflows/' },
    },
    {
      name: 'domain-ground-floor',
      severity: 'error',
      comment: 'src/domain is the ground floor: it imports nothing of the layers above it.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(?!domain/)' },
    },
    {
      name: 'src-not-scripts-or-tests',
      severity: 'error',
      comment: 'The service never imports its scripts or its tests.',
      from: { path: '^src/' },
      to: { path: '^(scripts|test)/' },
    },
    {
      name: 'bench-not-tests',
      severity: 'error',
      comment: 'Benchmarks measure the service, not the test harness: no imports from test/.',
      from: { path: '^scripts/bench/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
