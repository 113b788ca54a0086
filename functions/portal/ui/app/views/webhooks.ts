/** Webhooks: the signing secret (hidden until revealed), its rotation, and a test event sent to a receiver. */
import { api } from '../api';
import { fail, field, formText, h, say, when } from '../dom';
import { page } from '../layout';
import type { WebhookSecret, WebhookTest } from '../types';

const outcome = (answer: WebhookTest): string =>
  `${answer.delivered ? 'Delivered: ' : 'Not delivered: '}${
    answer.response_status !== null ? `HTTP ${answer.response_status}` : answer.error
  } in ${answer.latency_ms} ms (delivery ${answer.delivery_id}).`;

export const webhooksView = (): void => {
  const main = page('Webhooks', '#/webhooks');
  const input = h('input', {
    id: 'secret',
    class: 'mono',
    type: 'password',
    readonly: true,
    value: '',
    'aria-label': 'Current signing secret',
  });
  const reveal = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      'aria-pressed': 'false',
      onclick: () => {
        const hidden = input.type === 'password';
        input.type = hidden ? 'text' : 'password';
        reveal.textContent = hidden ? 'Hide' : 'Reveal';
        reveal.setAttribute('aria-pressed', hidden ? 'true' : 'false');
      },
    },
    'Reveal',
  );
  const previous = h('p', { class: 'muted' });
  const show = (answer: WebhookSecret) => {
    input.value = answer.webhook_signing_secret;
    previous.textContent = answer.previous_secret_expires_at
      ? `The previous secret still signs until ${when(answer.previous_secret_expires_at)}.`
      : '';
  };
  const rotate = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      onclick: () => {
        if (!confirm('Rotate the signing secret? For 24 hours callbacks are signed with both secrets.')) return;
        api.rotateWebhookSecret().then((answer) => {
          show(answer);
          say('The secret is rotated.');
        }, fail);
      },
    },
    'Rotate',
  );
  const result = h('div', { 'aria-live': 'polite' });
  const test = h(
    'form',
    {
      class: 'inline',
      onsubmit: (event) => {
        event.preventDefault();
        api.testWebhook(formText(test, 'url')).then((answer) => {
          result.replaceChildren(
            h('p', { class: `notice ${answer.delivered ? 'ok' : 'error'}`, text: outcome(answer) }),
          );
        }, fail);
      },
    },
    field('Receiver URL (https)', {
      name: 'url',
      type: 'url',
      required: true,
      placeholder: 'https://example.com/webhooks',
    }),
    h('button', { type: 'submit' }, 'Send a test event'),
  );
  main.append(
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'secret-title' },
      h('h3', { id: 'secret-title' }, 'Signing secret'),
      h('div', { class: 'secret' }, input, reveal, rotate),
      previous,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'test-title' },
      h('h3', { id: 'test-title' }, 'Test a receiver'),
      test,
      result,
    ),
  );
  api.webhookSecret().then(show, fail);
};
