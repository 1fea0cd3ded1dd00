import { describeCitKillPoints } from './harness/cit-kill-points';

// The kill-point matrix (issue 35) for a CIT authorization: harness/cit-kill-points.ts.
describeCitKillPoints('authorization');
