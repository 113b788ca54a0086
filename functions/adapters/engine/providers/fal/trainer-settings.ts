/** fal's platform API (https://fal.ai/docs/platform-apis/v1), where a request's payloads and files are deleted. */
export const FAL_PLATFORM_URL_DEFAULT = 'https://api.fal.ai/v1';
