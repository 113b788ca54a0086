/**
 * The page's address is its hash (`#/keys`, `#/signup?invitation=…`): `go` moves there, or draws the
 * view again when it is already there (a hash that does not change fires no `hashchange`).
 */

let draw: () => void = () => undefined;

/** Registers what draws the current hash's view (main.ts). */
export const onNavigate = (render: () => void): void => {
  draw = render;
};

export const go = (hash: string): void => {
  if (location.hash !== hash) location.hash = hash;
  else draw();
};

/** The view's path and its query: `#/signup?invitation=x` → `#/signup` and `invitation=x`. */
export const currentRoute = (): { path: string; params: URLSearchParams } => {
  const hash = location.hash || '#/overview';
  const at = hash.indexOf('?');
  return {
    path: at >= 0 ? hash.slice(0, at) : hash,
    params: new URLSearchParams(at >= 0 ? hash.slice(at + 1) : ''),
  };
};
