/**
 * API keys: create one with the scopes chosen here (its secret shown once, with a copy button), see each
 * key's scopes and last use, revoke one. `billing` is not preselected: a key that can top up is chosen on purpose.
 */
import { api } from '../api';
import { badge, fail, field, formText, h, row, say, table, when } from '../dom';
import { page } from '../layout';
import type { IssuedKey, Key, ScopeChoice } from '../types';

const COLUMNS = [
  { title: 'Name' },
  { title: 'Key id' },
  { title: 'Scopes' },
  { title: 'Created' },
  { title: 'Last used' },
  { title: 'Status' },
  { title: '' },
];

/** Copies through the clipboard API; where there is none (an insecure origin), the selected text with execCommand. */
const copyKey = (input: HTMLInputElement, apiKey: string): void => {
  input.select();
  (navigator.clipboard ? navigator.clipboard.writeText(apiKey) : Promise.reject(new Error('no clipboard'))).then(
    () => say('The key is copied.'),
    () => {
      document.execCommand('copy');
      say('The key is selected; copy it now.');
    },
  );
};

/** The new key, shown this once. */
const issuedCard = (created: IssuedKey): { card: HTMLElement; input: HTMLInputElement } => {
  const input = h('input', {
    id: 'new-key',
    class: 'mono',
    readonly: true,
    value: created.api_key,
    'aria-describedby': 'new-key-note',
  });
  const copy = h('button', { type: 'button', onclick: () => copyKey(input, created.api_key) }, 'Copy');
  const card = h(
    'div',
    { class: 'card' },
    h('label', { for: 'new-key' }, `Your new key "${created.name}" (${created.scopes.join(', ')})`),
    h('div', { class: 'secret' }, input, copy),
    h('p', { id: 'new-key-note', class: 'muted', text: 'It is shown this once: only its hash is kept. Store it now.' }),
  );
  return { card, input };
};

export const keysView = (): void => {
  const main = page('API keys', '#/keys');
  const shown = h('div');
  const holder = h('div');

  const keyRow = (key: Key): HTMLTableRowElement => {
    const revoke = key.revoked_at
      ? null
      : h(
          'button',
          {
            type: 'button',
            class: 'danger',
            'aria-label': `Revoke ${key.name || key.key_id}`,
            onclick: () => {
              if (!confirm('Revoke this key? Requests made with it will be refused.')) return;
              api.revokeKey(key.key_id).then(() => {
                say('The key is revoked.');
                list();
              }, fail);
            },
          },
          'Revoke',
        );
    return row([
      key.name || '(unnamed)',
      { node: h('code', { text: key.key_id }) },
      { node: h('span', { 'data-testid': 'key-scopes', text: key.scopes.join(', ') }) },
      when(key.created_at),
      key.last_used_at ? when(key.last_used_at) : 'never',
      { node: badge(key.revoked_at ? 'revoked' : 'active') },
      revoke,
    ]);
  };

  const scopeBoxes = h('fieldset', { class: 'scopes' }, h('legend', { text: 'Scopes' }));
  const drawScopes = (choices: ScopeChoice[]) => {
    if (scopeBoxes.querySelector('input')) return;
    for (const choice of choices)
      scopeBoxes.append(
        h(
          'label',
          { title: choice.meaning },
          h('input', { type: 'checkbox', name: 'scope', value: choice.scope, checked: choice.default }),
          ` ${choice.scope}`,
          h('span', { class: 'muted', text: ` (${choice.meaning})` }),
        ),
      );
  };
  const chosen = (): string[] =>
    [...scopeBoxes.querySelectorAll<HTMLInputElement>('input[name=scope]')]
      .filter((box) => box.checked)
      .map((box) => box.value);

  const list = () => {
    api.keys().then((answer) => {
      drawScopes(answer.scopes);
      holder.replaceChildren(table(COLUMNS, answer.keys.map(keyRow)));
    }, fail);
  };

  const form = h(
    'form',
    {
      class: 'inline',
      onsubmit: (event) => {
        event.preventDefault();
        api.createKey(formText(form, 'name'), chosen()).then((created) => {
          form.reset();
          const { card, input } = issuedCard(created);
          shown.replaceChildren(card);
          input.focus();
          list();
        }, fail);
      },
    },
    field('Name', { name: 'name', required: true, maxlength: 80, placeholder: 'e.g. production server' }),
    scopeBoxes,
    h('button', { type: 'submit' }, 'Create key'),
  );
  main.append(form, shown, holder);
  list();
};
