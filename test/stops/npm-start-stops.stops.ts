import { describeStopCycles } from './stop-cycles';

// The bug this guards against showed in 1 stop of 2 to 4 of 7: twenty of each kind.
describeStopCycles(20);
