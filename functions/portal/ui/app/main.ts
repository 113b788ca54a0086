/**
 * The developer portal's script (served as app-<hash>.js by functions/portal/handler.ts, bundled by esbuild
 * from this folder; functions/portal/ui/build.ts): draws the view the hash names, once the page knows who
 * is signed in, and the sign-in form when nobody is.
 */
import { api, currentSession } from './api';
import { quiet } from './dom';
import { currentRoute, go, onNavigate } from './navigation';
import { billingView } from './views/billing';
import { jobsView } from './views/jobs';
import { keysView } from './views/keys';
import { overviewView } from './views/overview';
import { playgroundView } from './views/playground';
import { profilesView } from './views/profiles';
import { signInView, signUpView } from './views/sign-in';
import { studioView } from './views/studio';
import { webhooksView } from './views/webhooks';

/** The views a signed-in developer reaches from the navigation; an unknown hash shows the overview. */
const VIEWS: Readonly<Record<string, () => void>> = {
  '#/overview': overviewView,
  '#/billing': billingView,
  '#/keys': keysView,
  '#/jobs': jobsView,
  '#/webhooks': webhooksView,
  '#/profiles': profilesView,
  '#/studio': studioView,
  '#/playground': playgroundView,
};

/** A signed-in view once the session is known (asked of the API after a reload), else the sign-in form. */
const withSession = (view: () => void): void => {
  if (currentSession()) {
    quiet();
    view();
    return;
  }
  api.session().then(
    () => {
      quiet();
      view();
    },
    () => go('#/signin'),
  );
};

const render = (): void => {
  const { path, params } = currentRoute();
  if (path === '#/signup') signUpView(params);
  else if (path === '#/signin') signInView();
  else withSession(VIEWS[path] ?? overviewView);
};

onNavigate(render);
window.addEventListener('hashchange', () => {
  quiet();
  render();
  document.getElementById('main')?.focus();
});
render();
