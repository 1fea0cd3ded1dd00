/**
 * `npm run test:stops`: `npm start` started and stopped 20 times by each kind of stop (group
 * SIGTERM, group SIGINT, SIGTERM to npm alone), checking each time that no process is left and
 * Postgres is stopped (test/stops). About 15 minutes (13 on a busy 2-core machine), so not part of `npm test`, which runs two of
 * each (test/api/npm-start-stops.test.ts); `.ci/run` runs it after test:cluster. Every start
 * brings its own Postgres and Temporal: no global setup.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  transform: base.transform,
  testEnvironment: base.testEnvironment,
  testMatch: ['<rootDir>/test/stops/**/*.stops.ts'],
  modulePathIgnorePatterns: base.modulePathIgnorePatterns,
  setupFiles: base.setupFiles,
  maxWorkers: 1,
  testTimeout: 180_000,
  verbose: true,
};
