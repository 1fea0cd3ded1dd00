import { DefaultLogger, Runtime } from '@temporalio/worker';

// Each jest test file gets its own SDK runtime: keep its logs to warnings and errors.
Runtime.install({ logger: new DefaultLogger('WARN') });
