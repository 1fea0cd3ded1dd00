/**
 * `npm run test:cluster`: the real Temporal server on Postgres with two worker and two API
 * processes (scripts/cluster), killed under load (docs/local-cluster.md); and a worker build
 * rolled out over another with Worker Versioning (docs/deployment.md#versioned-workers). Not part of `npm test`
 * (its files end in `.cluster.ts`, which the main config does not match); `.ci/run` runs it after.
 * Its global setup starts a throw-away Postgres; the test starts and stops the cluster on it.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  transform: base.transform,
  testEnvironment: base.testEnvironment,
  testMatch: ['<rootDir>/test/cluster/**/*.cluster.ts'],
  modulePathIgnorePatterns: base.modulePathIgnorePatterns,
  setupFiles: base.setupFiles,
  globalSetup: '<rootDir>/test/cluster/global-setup.ts',
  globalTeardown: '<rootDir>/test/cluster/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 600_000,
  verbose: true,
};
