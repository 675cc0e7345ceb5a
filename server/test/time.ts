// Durations in milliseconds, as the tests move their clocks.
export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
