/** The frame every view is drawn in: a signed-in page with the header and navigation, or a narrow form page. */
import { api, currentSession } from './api';
import { byId, fail, h } from './dom';
import { go } from './navigation';
import { apiKey } from './service';

const root = byId('app');

const LINKS = [
  ['#/overview', 'Overview'],
  ['#/billing', 'Billing'],
  ['#/keys', 'API keys'],
  ['#/jobs', 'Jobs'],
  ['#/webhooks', 'Webhooks'],
  ['#/profiles', 'Profiles'],
  ['#/studio', 'Profile studio'],
  ['#/playground', 'Playground'],
] as const;

const show = (title: string, ...nodes: Node[]): void => {
  root.replaceChildren(...nodes);
  document.title = `${title} · Developer portal`;
};

/** A signed-in page: the header (navigation with `current` marked, the e-mail, sign-out) and its main element. */
export const page = (title: string, current: string): HTMLElement => {
  const nav = h(
    'nav',
    { 'aria-label': 'Portal' },
    h(
      'ul',
      {},
      ...LINKS.map(([href, label]) =>
        h('li', {}, h('a', { href, 'aria-current': href === current ? 'page' : null, text: label })),
      ),
    ),
  );
  const signOut = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () => {
        api.signOut().then(() => {
          apiKey.forget();
          go('#/signin');
        }, fail);
      },
    },
    'Sign out',
  );
  const header = h(
    'header',
    {},
    h('h1', {}, 'Developer portal'),
    nav,
    h('span', { class: 'muted', text: currentSession()?.email ?? '' }),
    signOut,
  );
  const main = h('main', { id: 'main', tabindex: '-1' }, h('h2', { text: title }));
  show(title, header, main);
  return main;
};

/** A page without navigation (sign-up, sign-in): its main element, for the caller to fill. */
export const narrowPage = (title: string): HTMLElement => {
  const main = h('main', { id: 'main', class: 'narrow' }, h('h2', {}, title));
  show(title, main);
  return main;
};
