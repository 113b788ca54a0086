/** Jobs, newest first, with their cost and output; under each, on demand, its callback attempts and a redelivery. */
import { api } from '../api';
import { badge, fail, h, row, say, table, when } from '../dom';
import { page } from '../layout';
import type { Job, JobDeliveries } from '../types';

const COLUMNS = [
  { title: 'Created' },
  { title: 'Job' },
  { title: 'Operation' },
  { title: 'Status' },
  { title: 'Cost (USD)', num: true },
  { title: 'Completed' },
  { title: 'Output' },
  { title: '' },
];

const ATTEMPT_COLUMNS = [
  { title: 'Delivery' },
  { title: 'Attempt', num: true },
  { title: 'When' },
  { title: 'Answer' },
  { title: 'Latency (ms)', num: true },
  { title: 'Last' },
];

/** How long after a redelivery is queued the attempts are read again. */
const REDELIVERY_RELOAD_MS = 1500;

const attemptsOf = (log: JobDeliveries): HTMLElement =>
  log.attempts.length === 0
    ? h('p', {
        class: 'muted',
        text: log.callback_url ? 'No attempt yet.' : 'This job was submitted without a callback_url.',
      })
    : table(
        ATTEMPT_COLUMNS,
        log.attempts.map((attempt) =>
          row([
            { node: h('code', { text: attempt.delivery_id }) },
            { num: true, node: attempt.attempt },
            when(attempt.at),
            attempt.response_status !== null ? String(attempt.response_status) : attempt.error,
            { num: true, node: attempt.latency_ms },
            attempt.last ? 'yes' : 'no',
          ]),
        ),
      );

/** The row under a job that lists its callback attempts (a full-width cell). */
const deliveriesRow = (job: Job): HTMLTableRowElement => {
  const cell = h('td', { colspan: COLUMNS.length });
  const tr = h('tr', { class: 'deliveries' }, cell);
  const load = () => {
    api.deliveries(job.job_id).then((log) => {
      const redeliver = h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            api.redeliver(job.job_id).then((queued) => {
              say(`A new delivery (${queued.delivery_id}) is queued to ${queued.callback_url}.`);
              setTimeout(load, REDELIVERY_RELOAD_MS);
            }, fail);
          },
        },
        'Redeliver',
      );
      const ended = job.status === 'succeeded' || job.status === 'failed';
      cell.replaceChildren(
        h(
          'div',
          { class: 'card' },
          h('h3', { text: `Callback deliveries of ${job.job_id}` }),
          h('p', { class: 'muted', text: log.callback_url || '' }),
          attemptsOf(log),
          log.callback_url && ended ? h('p', {}, redeliver) : null,
        ),
      );
    }, fail);
  };
  load();
  return tr;
};

const costOf = (job: Job): string => {
  if (!job.cost) return '—';
  return job.cost.final !== null ? job.cost.final : `${job.cost.reserved} reserved`;
};

const jobRow = (job: Job): HTMLTableRowElement => {
  const link = job.result?.download_urls[0];
  const output = link
    ? h(
        'a',
        { href: link, 'aria-label': `Output of ${job.job_id}` },
        h('img', { class: 'thumb', src: link, alt: `Output of ${job.job_id}`, loading: 'lazy' }),
      )
    : null;
  let open: HTMLTableRowElement | null = null;
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      'aria-expanded': 'false',
      onclick: () => {
        if (open) {
          open.remove();
          open = null;
          toggle.setAttribute('aria-expanded', 'false');
          return;
        }
        open = deliveriesRow(job);
        tr.after(open);
        toggle.setAttribute('aria-expanded', 'true');
      },
    },
    'Deliveries',
  );
  const tr = row([
    when(job.created_at),
    { node: h('code', { text: job.job_id }) },
    job.operation,
    { node: badge(job.status) },
    { num: true, node: costOf(job) },
    when(job.completed_at),
    output,
    toggle,
  ]);
  return tr;
};

export const jobsView = (): void => {
  const main = page('Jobs', '#/jobs');
  const body = h('tbody');
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Older jobs');
  let cursor: string | null = null;
  main.append(table(COLUMNS, [], body), h('p', {}, more));
  const load = () => {
    api.jobs(cursor).then((jobs) => {
      if (!cursor && jobs.jobs.length === 0)
        body.appendChild(row([{ node: h('span', { class: 'muted', text: 'No jobs in the last 24 hours.' }) }]));
      for (const job of jobs.jobs) body.appendChild(jobRow(job));
      cursor = jobs.next_cursor;
      more.hidden = !cursor;
    }, fail);
  };
  more.addEventListener('click', load);
  load();
};
