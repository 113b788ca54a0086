const LOOPBACK_ORIGIN = /^https?:\/\/(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])(?::\d+)?$/i;

/**
 * The portal page's Content-Security-Policy. Beside the service itself, the page reaches one origin: the
 * bucket's, for the presigned PUTs of direct uploads (connect-src) and the presigned GETs a download link
 * redirects to (img-src: job outputs). Locally the bucket is a loopback address; a loopback origin is
 * written only in development (ALLOW_LOOPBACK_URLS), so a deployed policy names none.
 */
export const portalCsp = (options: { bucketOrigin: string | undefined; development: boolean }): string => {
  const bucket =
    options.bucketOrigin && (options.development || !LOOPBACK_ORIGIN.test(options.bucketOrigin))
      ? ` ${options.bucketOrigin}`
      : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${bucket}`,
    `connect-src 'self'${bucket}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
};
