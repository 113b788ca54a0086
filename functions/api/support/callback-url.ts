import { assertUrlAllowed, BlockedAddressError } from '../../adapters/net/ssrf-guard';
import { settings } from '../../composition/core';
import { RequestValidationError, valueErrorDetail } from '../../entry/http/validation';

/**
 * A callback_url whose host is an IP literal the deliverer would never connect to (private, loopback,
 * link-local, metadata, ...) is refused at submit, a 422 like every other invalid field, rather than
 * accepted and dropped at delivery. Host names are still resolved and checked when the callback is sent.
 */
export const assertCallbackUrlReachable = (body: { callback_url?: string }) =>
  assertBodyUrlReachable('callback_url', body.callback_url);

/** The same check for any body field that names where the service will POST (a webhook test's `url`). */
export const assertBodyUrlReachable = (field: string, url: string | undefined) => {
  if (url === undefined) return;
  try {
    assertUrlAllowed(new URL(url), { allowLoopback: settings().ALLOW_LOOPBACK_URLS });
  } catch (error) {
    if (!(error instanceof BlockedAddressError)) throw error;
    throw new RequestValidationError([
      valueErrorDetail(['body', field], `${field} must reach a public address: ${error.message}`, url),
    ]);
  }
};
