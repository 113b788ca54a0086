/**
 * Billing: the balance (and a debt a refund left), top-ups through Stripe Checkout at the operator's preset
 * amounts or another, and the top-ups so far. Checkout sends the developer back here with `top_up` and
 * `checkout` in the hash; the page then shows that top-up's status, asking again while Stripe has not yet
 * told the service (only Stripe's webhook credits, never this return).
 */
import { USD_AMOUNT_PATTERN } from '../../../../domain/shared/money';
import { api } from '../api';
import { badge, fail, field, formText, h, row, table, when } from '../dom';
import { page } from '../layout';
import { currentRoute } from '../navigation';
import type { Billing, TopUp } from '../types';
import { autoRechargeCard } from './auto-recharge';

/** How long the page waits for Stripe's word after the return, asking every POLL_MS. */
const WAIT_MS = 30_000;
const POLL_MS = 1_000;

const COLUMNS = [
  { title: 'Created' },
  { title: 'Amount (USD)', num: true },
  { title: 'Status' },
  { title: 'Credited (USD)', num: true },
  { title: 'Refunded (USD)', num: true },
  { title: '' },
];

const topUpRow = (topUp: TopUp): HTMLTableRowElement =>
  row([
    when(topUp.created_at),
    { num: true, node: topUp.amount },
    { node: badge(topUp.status) },
    { num: true, node: topUp.credited?.usd ?? '—' },
    { num: true, node: topUp.refunded.micro_usd > 0 ? topUp.refunded.usd : '—' },
    topUp.checkout_url ? h('a', { href: topUp.checkout_url, text: 'Pay' }) : null,
  ]);

const banners = (billing: Billing): HTMLElement[] => {
  const shown: HTMLElement[] = [];
  if (billing.debt.micro_usd > 0)
    shown.push(
      h('div', {
        class: 'notice error',
        role: 'alert',
        'data-testid': 'debt-banner',
        text: `Your account owes ${billing.debt.usd} USD after a refund or a lost payment dispute. New work is refused (402 BALANCE_IN_DEBT) until a top-up repays it.`,
      }),
    );
  else if (billing.balance.micro_usd === 0)
    shown.push(
      h('div', {
        class: 'notice error',
        role: 'alert',
        'data-testid': 'low-banner',
        text: 'Your balance is empty: requests are answered 402 until you top up.',
      }),
    );
  else if (billing.low_balance_threshold && billing.balance.micro_usd < billing.low_balance_threshold.micro_usd)
    shown.push(
      h('div', {
        class: 'notice error',
        role: 'status',
        'data-testid': 'low-banner',
        text: `Your balance is below your low-balance threshold of ${billing.low_balance_threshold.usd} USD${billing.auto_recharge ? '; auto-recharge will top it up' : ''}.`,
      }),
    );
  return shown;
};

/** The status of the top-up Checkout returned from, asked again until it is no longer pending. */
const returnNotice = (topUpId: string, outcome: string | null, onSettled: () => void): HTMLElement => {
  const notice = h('div', { class: 'notice', role: 'status', 'data-testid': 'return-notice' });
  const started = Date.now();
  const show = (topUp: TopUp) => {
    if (topUp.status === 'completed') {
      notice.className = 'notice ok';
      notice.textContent = `Payment received: ${topUp.credited?.usd ?? topUp.amount} USD added to your balance.`;
      onSettled();
    } else if (topUp.status === 'pending' && outcome === 'canceled') {
      notice.textContent = `Checkout was canceled; nothing was charged. The ${topUp.amount} USD top-up can still be paid from the list below.`;
    } else if (topUp.status === 'pending') {
      notice.textContent = 'Waiting for Stripe to confirm the payment…';
      if (Date.now() - started < WAIT_MS) setTimeout(ask, POLL_MS);
      else notice.textContent = 'Stripe has not confirmed the payment yet; this page shows it once it has.';
    } else {
      notice.className = 'notice error';
      notice.textContent = `This top-up ${topUp.status === 'expired' ? 'expired unpaid' : 'failed'}; nothing was charged.`;
    }
  };
  const ask = () => api.topUp(topUpId).then(show, fail);
  ask();
  return notice;
};

export const billingView = (): void => {
  const main = page('Billing', '#/billing');
  const top = h('div');
  const cards = h('div', { class: 'cards' });
  const buy = h(
    'section',
    { class: 'card', 'aria-labelledby': 'buy-title' },
    h('h3', { id: 'buy-title' }, 'Add money'),
  );
  const rows = h('tbody');
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Older top-ups');
  const history = h(
    'section',
    { 'aria-labelledby': 'top-ups-title' },
    h('h3', { id: 'top-ups-title' }, 'Top-ups'),
    table(COLUMNS, [], rows),
    h('p', {}, more),
  );
  main.append(top, cards, buy, autoRechargeCard(), history);

  const keepCard = h('input', { type: 'checkbox', name: 'save_card' });
  const pay = (amount: string, button: HTMLButtonElement) => {
    button.disabled = true;
    api.createTopUp(amount, keepCard.checked).then(
      (created) => location.assign(created.checkout_url),
      (error: unknown) => {
        button.disabled = false;
        fail(error);
      },
    );
  };

  const drawMoney = (billing: Billing) => {
    top.replaceChildren(...banners(billing));
    cards.replaceChildren(
      h(
        'div',
        { class: 'card' },
        h('div', { class: 'muted' }, 'Balance'),
        h('div', { class: 'figure', 'data-testid': 'balance', text: `${billing.balance.usd} USD` }),
      ),
    );
  };

  const drawBuy = (billing: Billing) => {
    if (!billing.top_ups_enabled) {
      buy.append(
        h('p', { class: 'muted', text: 'Top-ups are not available here: ask the operator to credit your balance.' }),
      );
      return;
    }
    const presets = h(
      'div',
      { class: 'secret' },
      ...billing.presets.map((amount) => {
        const button: HTMLButtonElement = h('button', { type: 'button', 'data-amount': amount }, `${amount} USD`);
        button.addEventListener('click', () => pay(amount, button));
        return button;
      }),
    );
    const submit = h('button', { type: 'submit', class: 'secondary' }, 'Pay another amount');
    const form = h(
      'form',
      {
        onsubmit: (event: Event) => {
          event.preventDefault();
          pay(formText(form, 'amount').trim(), submit);
        },
      },
      field(`Amount in USD (${billing.min_amount} to ${billing.max_amount})`, {
        name: 'amount',
        inputmode: 'decimal',
        // The service's own rule; a pattern attribute is anchored anyway, so its ^ and $ change nothing.
        pattern: USD_AMOUNT_PATTERN.source,
        required: true,
        placeholder: billing.presets[0] ?? '25.00',
      }),
      submit,
    );
    buy.append(
      h('p', {
        class: 'muted',
        text: 'Paid on Stripe’s Checkout page; the balance is credited as soon as Stripe confirms the payment.',
      }),
      h('label', {}, keepCard, ' Keep this card for auto-recharge (turned on below)'),
      presets,
      form,
    );
  };

  const refresh = () => api.billing().then(drawMoney, fail);
  let cursor: string | null = null;
  const load = (reset: boolean) => {
    if (reset) cursor = null;
    api.topUps(cursor).then((pageOf) => {
      if (reset) rows.replaceChildren();
      for (const topUp of pageOf.top_ups) rows.appendChild(topUpRow(topUp));
      cursor = pageOf.next_cursor;
      more.hidden = !cursor;
    }, fail);
  };
  more.addEventListener('click', () => load(false));

  api.billing().then((billing) => {
    drawMoney(billing);
    drawBuy(billing);
  }, fail);
  load(true);

  const { params } = currentRoute();
  const returned = params.get('top_up');
  if (returned)
    top.before(
      returnNotice(returned, params.get('checkout'), () => {
        refresh();
        load(true);
      }),
    );
};
