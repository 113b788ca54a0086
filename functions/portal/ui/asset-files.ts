/** What the portal's build makes and the handler serves: the two files' names beside the bundle, and their text. */
export const PORTAL_ASSET_FILES = { script: 'portal-app.js', style: 'portal-app.css' } as const;

export interface PortalAssets {
  script: string;
  style: string;
}
