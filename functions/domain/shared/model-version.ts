/**
 * The generation of the identity model: an account has a default, a profile is trained for one, and a
 * request may not mix profiles of two. Its own module because accounts, profiles and images all name it.
 */
export const MODEL_VERSIONS = ['v1', 'v2'] as const;
export type ModelVersion = (typeof MODEL_VERSIONS)[number];
export const DEFAULT_MODEL_VERSION: ModelVersion = 'v2';
