/**
 * One jest run over unit, workflow (time-skipping) and API (real API + worker + Temporal dev
 * server + Postgres) tests. test/helpers/global-setup.ts starts the shared infrastructure once;
 * every test file isolates itself (own database cloned from a migrated template, own task queue).
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/test/helpers/quiet-temporal.ts'],
  maxWorkers: 2,
  testTimeout: 60_000,
  slowTestThreshold: 20,
  watchPathIgnorePatterns: ['<rootDir>/.data/'],
  modulePathIgnorePatterns: ['<rootDir>/.data/', '<rootDir>/dist/'],
};
