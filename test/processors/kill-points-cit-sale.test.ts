import { describeCitKillPoints } from './harness/cit-kill-points';

// The kill-point matrix (issue 35) for a CIT sale: harness/cit-kill-points.ts.
describeCitKillPoints('sale');
