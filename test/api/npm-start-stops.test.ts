import { describeStopCycles } from '../stops/stop-cycles';

// The short run of test/stops/npm-start-stops.stops.ts (20 of each, `npm run test:stops`).
describeStopCycles(2);
