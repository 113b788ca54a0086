/** The current time as epoch milliseconds. Injected everywhere so tests never sleep. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export const toIso = (epochMs: number): string => new Date(epochMs).toISOString();
