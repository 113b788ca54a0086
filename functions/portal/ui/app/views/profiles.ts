/** Profiles: picture, status, tag and model version of each, and deleting one. */
import { api } from '../api';
import { badge, fail, h, row, say, table, when } from '../dom';
import { page } from '../layout';
import type { Profile } from '../types';

const COLUMNS = [
  { title: 'Picture' },
  { title: 'Profile' },
  { title: 'Status' },
  { title: 'Tag' },
  { title: 'Model version' },
  { title: 'Created' },
  { title: '' },
];

export const profilesView = (): void => {
  const main = page('Profiles', '#/profiles');
  const holder = h('div');
  main.appendChild(holder);

  const profileRow = (profile: Profile): HTMLTableRowElement => {
    const picture = profile.has_picture
      ? h('img', {
          class: 'picture',
          src: api.profilePictureUrl(profile.profile_id),
          alt: `Picture of ${profile.profile_id}`,
        })
      : h('span', { class: 'muted', text: 'none yet' });
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'danger',
        'aria-label': `Delete ${profile.profile_id}`,
        onclick: () => {
          if (!confirm('Delete this profile and its photos? This cannot be undone.')) return;
          api.deleteProfile(profile.profile_id).then(() => {
            say('The profile is deleted.');
            list();
          }, fail);
        },
      },
      'Delete',
    );
    return row([
      { node: picture },
      { node: h('code', { text: profile.profile_id }) },
      { node: badge(profile.status) },
      profile.tag || '—',
      profile.model_version,
      when(profile.created_at),
      remove,
    ]);
  };

  const list = () => {
    api.profiles().then((answer) => {
      if (answer.profiles.length === 0) {
        holder.replaceChildren(
          h(
            'p',
            { class: 'muted' },
            'No profiles yet: create one in the ',
            h('a', { href: '#/studio' }, 'profile studio'),
            ' or with POST /v2/service/profiles/add.',
          ),
        );
        return;
      }
      holder.replaceChildren(table(COLUMNS, answer.profiles.map(profileRow)));
    }, fail);
  };
  list();
};
