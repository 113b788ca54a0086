/**
 * The portal's page: one HTML shell, one script and one style sheet, no framework and nothing from a CDN.
 * The script (./app, TypeScript bundled by esbuild: build.ts) builds every element with DOM calls and talks
 * to /portal/api with the session cookie and the session's CSRF token. Assets are named by their content
 * hash, so a deployment changes their URL and they may be cached for a year.
 */
import { createHash } from 'node:crypto';
import { loadPortalAssets } from './assets';

const named = (body: string, extension: string) => ({
  name: `app-${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${extension}`,
  body,
});

const assets = loadPortalAssets();

export const PORTAL_SCRIPT = named(assets.script, 'js');
export const PORTAL_STYLE = named(assets.style, 'css');

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The shell: `prefix` is the stage path the API is served under (empty locally, e.g. `/prod` on AWS). */
export const portalPage = (prefix: string): string => {
  const base = escapeAttribute(`${prefix}/portal`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Developer portal</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/${PORTAL_STYLE.name}">
</head>
<body data-base="${base}">
<a class="visually-hidden" href="#main">Skip to content</a>
<div id="live" class="notice" role="status" aria-live="polite" hidden></div>
<div id="app"></div>
<script src="${base}/${PORTAL_SCRIPT.name}"></script>
</body>
</html>
`;
};
