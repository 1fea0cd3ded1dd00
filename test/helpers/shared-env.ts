/**
 * What global-setup started, passed to the test files through environment variables (jest's
 * workers inherit the parent's environment).
 */
export const SHARED = {
  pgAdminUrl: 'TEST_PG_ADMIN_URL',
  templateDatabase: 'TEST_PG_TEMPLATE',
  temporalAddress: 'TEST_TEMPORAL_ADDRESS',
  workflowBundle: 'TEST_WORKFLOW_BUNDLE',
  testServerPath: 'TEST_TEMPORAL_TEST_SERVER',
  logDir: 'TEST_LOG_DIR',
  tlsCert: 'TEST_TLS_CERT',
  tlsKey: 'TEST_TLS_KEY',
} as const;

export function shared(name: keyof typeof SHARED): string {
  const value = process.env[SHARED[name]];
  if (!value) throw new Error(`${SHARED[name]} is not set: run the tests through jest (test/helpers/global-setup.ts)`);
  return value;
}
