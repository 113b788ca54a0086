/**
 * The playground's profiles: the account's READY profiles, each ticked into `profile_ids` or inserted as
 * `[[id]]` into the prompt, as the operation allows.
 */
import { api } from '../../api';
import { h } from '../../dom';
import type { PlaygroundState } from './form';

/** The profiles ticked (sent as `profile_ids`). */
export const checkedProfiles = (profilePart: HTMLElement): string[] =>
  Array.from(profilePart.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')).map((box) => box.value);

/** READY profiles: candidates (`profile_ids`) or `[[id]]` in the prompt, as the operation allows. */
export const drawProfiles = (
  state: PlaygroundState,
  profilePart: HTMLElement,
  prompt: HTMLTextAreaElement,
  refresh: () => void,
): void => {
  const { profiles, operation } = state;
  const ready = profiles.filter((profile) => profile.status === 'READY');
  const legend = h('legend', {}, 'Profiles (READY)');
  if (ready.length === 0) {
    profilePart.replaceChildren(
      legend,
      h(
        'p',
        { class: 'muted' },
        'No READY profile yet: ',
        h('a', { href: '#/studio' }, 'train one in the profile studio'),
        '.',
      ),
    );
    return;
  }
  const howTo =
    operation === 'generate'
      ? 'generate names profiles in the prompt only: insert [[id]] where the subject goes.'
      : operation === 'edit'
        ? 'Tick a profile to send it in profile_ids, or insert [[id]] into the prompt.'
        : `Tick a profile to send it in profile_ids: ${operation} keeps its face.`;
  profilePart.replaceChildren(
    legend,
    h('p', { class: 'muted', text: howTo }),
    h(
      'ul',
      { class: 'profile-list' },
      ...ready.map((profile) => {
        const name = profile.tag ? `${profile.tag} (${profile.profile_id})` : profile.profile_id;
        const insert = h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'aria-label': `Insert [[${profile.profile_id}]] into the prompt`,
            onclick: () => {
              const token = `[[${profile.profile_id}]]`;
              const at = prompt.selectionStart ?? prompt.value.length;
              const before = prompt.value.slice(0, at);
              const spaced = before && !/\s$/.test(before) ? ` ${token}` : token;
              prompt.value = `${before}${spaced}${prompt.value.slice(at)}`;
              prompt.focus();
              refresh();
            },
          },
          'Insert [[id]]',
        );
        return h(
          'li',
          {},
          profile.has_picture
            ? h('img', { class: 'picture small', src: api.profilePictureUrl(profile.profile_id), alt: '' })
            : null,
          operation === 'generate'
            ? h('span', {}, name)
            : h(
                'label',
                { class: 'check' },
                h('input', { type: 'checkbox', value: profile.profile_id }),
                `Use ${name}`,
              ),
          operation === 'edit' || operation === 'generate' ? insert : null,
        );
      }),
    ),
  );
};
