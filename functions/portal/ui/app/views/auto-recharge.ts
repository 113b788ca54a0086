/**
 * The Billing page's auto-recharge card: the one place auto-recharge is turned on or raised, by the person
 * signed in (an API key may only lower it or turn it off). It shows whether a card is kept, why the service
 * turned it off, and what automatic charges took today against the daily cap.
 */
import { USD_AMOUNT_PATTERN } from '../../../../domain/shared/money';
import { api } from '../api';
import { fail, field, formText, h, say } from '../dom';
import type { BillingSettings } from '../types';

export const autoRechargeCard = (): HTMLElement => {
  const card = h(
    'section',
    { class: 'card', 'aria-labelledby': 'recharge-title', 'data-testid': 'auto-recharge' },
    h('h3', { id: 'recharge-title' }, 'Auto-recharge'),
  );
  const draw = (settings: BillingSettings) => {
    const recharge = settings.auto_recharge;
    const status = h('p', {
      'data-testid': 'auto-recharge-status',
      text: recharge.enabled
        ? `On: when a settle leaves the balance below ${recharge.threshold} USD, your card is charged ${recharge.amount} USD.`
        : `Off${recharge.disabled_reason ? ` (turned off after ${recharge.disabled_reason})` : ''}.`,
    });
    const today = h('p', {
      class: 'muted',
      'data-testid': 'auto-recharge-today',
      text: `Automatic charges today (UTC): ${recharge.charged_today} of at most ${recharge.daily_max} USD.`,
    });
    if (!recharge.card_saved) {
      card.replaceChildren(
        card.firstChild as Node,
        status,
        h('p', { class: 'muted', text: 'Make a top-up with “Keep this card” ticked to be able to turn it on.' }),
        today,
      );
      return;
    }
    const enabled = h('input', { type: 'checkbox', name: 'enabled', checked: recharge.enabled });
    const money = { inputmode: 'decimal', pattern: USD_AMOUNT_PATTERN.source, required: true };
    const form: HTMLFormElement = h(
      'form',
      {
        onsubmit: (event: Event) => {
          event.preventDefault();
          api
            .updateBillingSettings({
              auto_recharge: {
                enabled: enabled.checked,
                threshold: formText(form, 'threshold').trim(),
                amount: formText(form, 'amount').trim(),
              },
            })
            .then((saved) => {
              say('Auto-recharge is saved.');
              draw(saved);
            }, fail);
        },
      },
      h('label', {}, enabled, ' Charge my saved card automatically'),
      field('When the balance falls below (USD)', { ...money, name: 'threshold', value: recharge.threshold ?? '' }),
      field(`Charge (USD, at most ${recharge.daily_max} a day in all)`, {
        ...money,
        name: 'amount',
        value: recharge.amount ?? '',
      }),
      h('button', { type: 'submit' }, 'Save auto-recharge'),
    );
    card.replaceChildren(card.firstChild as Node, status, today, form);
  };
  api.billingSettings().then(draw, fail);
  return card;
};
