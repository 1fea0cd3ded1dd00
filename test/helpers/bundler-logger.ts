/** The workflow bundler's logger in tests: its warnings and errors only (webpack's report is noise). */
export const quietBundlerLogger = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => process.stderr.write(`[bundle] ${message}\n`),
  error: (message: string) => process.stderr.write(`[bundle] ${message}\n`),
  log: () => {},
};
