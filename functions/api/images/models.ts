import { settings } from '../../composition/core';
import { Images } from '../../domain';
import { apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';

/**
 * GET /v2/service/models: every base model with its operations, resolutions, aspect ratios, qualities,
 * `size` support and prices, and whether a real hosted model serves it here. Never a provider's key.
 */
const lambdaHandler = async () =>
  ok(Images.modelList(settings().MODEL_ROUTES, settings().MODEL_ALIASES, settings().ENGINE));

export const handler = apiHandler(lambdaHandler);
