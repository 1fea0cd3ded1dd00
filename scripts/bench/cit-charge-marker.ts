/**
 * The bench's mark for a CIT evaluate whose charge runs as a local activity
 * (scripts/bench/cit-charge-shape.ts): its externalOrderId's prefix.
 */
export const LOCAL_CHARGE_PREFIX = 'bench-local-';
