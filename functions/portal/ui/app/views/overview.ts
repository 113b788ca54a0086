/** The overview: balance, limits and model version; spend per day over 30 days; the ledger, newest first. */
import { api } from '../api';
import { fail, h, row, svg, table, when } from '../dom';
import { page } from '../layout';
import type { SpendDay } from '../types';

const CHART = { width: 720, height: 190, pad: 24 } as const;

const usd = (micros: number): string => (micros / 1e6).toFixed(2);

/** One bar a day (a refund-heavy day below zero draws none), a date under every seventh, counted from today. */
const spendChart = (days: readonly SpendDay[]): SVGSVGElement => {
  const { width, height, pad } = CHART;
  const max = Math.max(...days.map((day) => Math.max(0, day.spent.micro_usd)), 1);
  const barWidth = (width - pad) / days.length;
  const total = days.reduce((sum, day) => sum + day.spent.micro_usd, 0);
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'chart',
    role: 'img',
    'aria-label': `Spend per day over the last ${days.length} days: ${usd(total)} USD in total`,
  });
  chart.appendChild(svg('text', { x: String(pad), y: '10' }, `max ${usd(max)} USD a day`));
  days.forEach((day, index) => {
    const barHeight = Math.round(((height - pad - 16) * Math.max(0, day.spent.micro_usd)) / max);
    chart.appendChild(
      svg(
        'rect',
        {
          class: 'bar',
          x: String(pad + index * barWidth + 1),
          y: String(height - pad - barHeight),
          width: String(Math.max(1, barWidth - 2)),
          height: String(barHeight),
        },
        svg('title', {}, `${day.date}: ${day.spent.usd} USD`),
      ),
    );
    if ((days.length - 1 - index) % 7 === 0) {
      const last = index === days.length - 1;
      chart.appendChild(
        svg(
          'text',
          {
            x: String(last ? width : pad + index * barWidth + barWidth / 2),
            'text-anchor': last ? 'end' : 'middle',
            y: String(height - 6),
          },
          day.date.slice(5),
        ),
      );
    }
  });
  return chart;
};

export const overviewView = (): void => {
  const main = page('Overview', '#/overview');
  const cards = h('div', { class: 'cards' });
  const chartCard = h(
    'section',
    { class: 'card', 'aria-labelledby': 'spend-title' },
    h('h3', { id: 'spend-title' }, 'Spend per day (30 days)'),
  );
  const ledgerSection = h('section', { 'aria-labelledby': 'ledger-title' }, h('h3', { id: 'ledger-title' }, 'Ledger'));
  main.append(cards, chartCard, ledgerSection);

  api.account().then((account) => {
    cards.append(
      h(
        'div',
        { class: 'card' },
        h('div', { class: 'muted' }, 'Balance'),
        h('div', { class: 'figure', 'data-testid': 'balance', text: `${account.balance.usd} USD` }),
      ),
      h(
        'div',
        { class: 'card' },
        h('div', { class: 'muted' }, 'Limits'),
        h('div', {}, `${account.limits.requests_per_minute} requests a minute`),
        h('div', {}, `${account.limits.running_jobs} jobs running at once`),
      ),
      h(
        'div',
        { class: 'card' },
        h('div', { class: 'muted' }, 'Default model version'),
        h('div', { class: 'figure', text: account.default_model_version }),
      ),
    );
  }, fail);

  api.spend(30).then((spend) => {
    chartCard.appendChild(spendChart(spend.days));
    if (spend.truncated)
      chartCard.appendChild(
        h('p', { class: 'muted', text: 'The oldest days are incomplete: too many entries to sum.' }),
      );
  }, fail);

  const rows = h('tbody');
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Older entries');
  let cursor: string | null = null;
  const load = () => {
    api.ledger(cursor).then((ledger) => {
      for (const entry of ledger.entries)
        rows.appendChild(
          row([
            when(entry.created_at),
            entry.kind,
            { num: true, node: entry.amount.usd },
            { num: true, node: entry.balance_after.usd },
            entry.job_id || entry.profile_id || entry.note || '',
          ]),
        );
      cursor = ledger.next_cursor;
      more.hidden = !cursor;
    }, fail);
  };
  more.addEventListener('click', load);
  const columns = [
    { title: 'When' },
    { title: 'Kind' },
    { title: 'Amount (USD)', num: true },
    { title: 'Balance after (USD)', num: true },
    { title: 'For' },
  ];
  ledgerSection.append(table(columns, [], rows), h('p', {}, more));
  load();
};
