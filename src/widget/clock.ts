/** Milliseconds since the page started loading, as the signals' `t`. */
export function pageTime(): number {
  return Math.max(0, Math.round(performance.now()));
}
