/**
 * Read first: the loopback-URL rule. Local development runs doubles (the providers', Stripe's, fal's key set)
 * on this machine, at a loopback address; a deployment never names one. So a URL the operator configures is
 * https, or, only with ALLOW_LOOPBACK_URLS (development), http on a loopback host. Fetched and callback URLs
 * are guarded by address instead (adapters/net/ssrf-guard.ts).
 */

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether the URL's host names this machine (as the WHATWG parser writes it: lower case, IPv6 in brackets). */
export const isLoopbackUrl = (url: URL): boolean => LOOPBACK_HOSTS.includes(url.hostname);

/** `text` when it is an https URL, or (`allowLoopback`) an http one on a loopback host; else throws naming `what`. */
export const checkedHttpsUrl = (text: string, what: string, allowLoopback: boolean): string => {
  const url = new URL(text);
  if (url.protocol === 'https:' || (allowLoopback && isLoopbackUrl(url) && url.protocol === 'http:')) return text;
  throw new Error(`${what} must be https${allowLoopback ? ' (or http on a loopback address)' : ''}: ${text}`);
};
