/**
 * The fast tier: test/unit alone, with no Postgres, Temporal server, browser or bundle (no
 * global setup). `npm run test:unit` runs it in seconds; `npm test` runs it too, with the rest.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  transform: base.transform,
  testEnvironment: base.testEnvironment,
  testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
  modulePathIgnorePatterns: base.modulePathIgnorePatterns,
};
