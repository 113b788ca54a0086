/** The `quality` values a request may name (the token counts and the catalog both read them). */
export const QUALITIES = ['auto', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Quality = (typeof QUALITIES)[number];
