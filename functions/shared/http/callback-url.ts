import { assertUrlAllowed, BlockedAddressError } from '../../adapters/net/ssrf-guard';
import { settings } from '../../composition/core';
import { RequestValidationError, valueErrorDetail } from './validation';

/**
 * A callback_url whose host is an IP literal the deliverer would never connect to (private, loopback,
 * link-local, metadata, ...) is refused at submit, a 422 like every other invalid field, rather than
 * accepted and dropped at delivery. Host names are still resolved and checked when the callback is sent.
 */
export const assertCallbackUrlReachable = (body: { callback_url?: string }) => {
  if (body.callback_url === undefined) return;
  try {
    assertUrlAllowed(new URL(body.callback_url), { allowLoopback: settings().ALLOW_LOOPBACK_URLS });
  } catch (error) {
    if (!(error instanceof BlockedAddressError)) throw error;
    throw new RequestValidationError([valueErrorDetail(['body', 'callback_url'], `callback_url must reach a public address: ${error.message}`, body.callback_url)]);
  }
};
