/**
 * The portal's page: one HTML shell, one script and one style sheet, no framework and nothing from a CDN.
 * The script builds every element with DOM calls (text is set as text, never parsed as HTML) and talks to
 * /portal/api with the session cookie and the session's CSRF token. Assets are named by their content
 * hash, so a deployment changes their URL and they may be cached for a year.
 *
 * The script is kept here as a string (it runs in the browser, not in Node), so it is written without
 * backticks or template placeholders.
 */
import { createHash } from 'node:crypto';

const named = (body: string, extension: string) => ({
  name: `app-${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${extension}`,
  body,
});

const STYLE = String.raw`
:root { --ink: #1b1f24; --muted: #4a5361; --line: #d0d7de; --bg: #f6f8fa; --card: #fff; --accent: #0b57d0; --accent-ink: #fff; --bad: #a4001d; --good: #0a6b2d; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
header { display: flex; align-items: center; gap: 1rem; padding: .75rem 1.5rem; background: var(--card); border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.05rem; margin: 0 auto 0 0; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: 0; }
nav a { display: inline-block; padding: .35rem .7rem; border-radius: 6px; text-decoration: none; color: var(--ink); }
nav a[aria-current="page"] { background: var(--accent); color: var(--accent-ink); }
main { max-width: 1080px; margin: 1.5rem auto; padding: 0 1.5rem; }
h2 { font-size: 1.35rem; margin: 0 0 1rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin-bottom: 1rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 1rem; }
.figure { font-size: 1.6rem; font-weight: 600; }
.muted { color: var(--muted); }
table { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { background: var(--bg); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; word-break: break-all; }
form { display: grid; gap: .75rem; max-width: 28rem; }
form.inline { display: flex; flex-wrap: wrap; align-items: end; max-width: none; margin-bottom: 1rem; }
label { display: grid; gap: .25rem; font-weight: 600; }
input { font: inherit; font-weight: 400; padding: .45rem .6rem; border: 1px solid #8c959f; border-radius: 6px; min-width: 16rem; }
button { font: inherit; padding: .45rem .9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); cursor: pointer; }
button.secondary { background: var(--card); color: var(--accent); }
button.danger { background: var(--card); color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .6; cursor: default; }
:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.status { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-size: .85em; border: 1px solid var(--line); }
.status.succeeded, .status.READY, .status.active { color: var(--good); border-color: var(--good); }
.status.failed, .status.ERROR, .status.revoked { color: var(--bad); border-color: var(--bad); }
.thumb { width: 64px; height: 48px; object-fit: cover; border-radius: 4px; border: 1px solid var(--line); display: block; }
.picture { width: 72px; height: 72px; object-fit: cover; border-radius: 50%; border: 1px solid var(--line); background: var(--bg); }
.notice { padding: .6rem .9rem; border-radius: 6px; margin-bottom: 1rem; border: 1px solid var(--line); background: var(--card); }
#live { position: fixed; right: 1.5rem; bottom: 1.5rem; max-width: 36rem; margin: 0; box-shadow: 0 4px 16px rgba(0,0,0,.12); z-index: 10; }
.notice.error { border-color: var(--bad); color: var(--bad); }
.notice.ok { border-color: var(--good); color: var(--good); }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret input { flex: 1; min-width: 20rem; }
.chart { width: 100%; height: auto; }
.chart rect.bar { fill: var(--accent); }
.chart text { font-size: 10px; fill: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.visually-hidden:focus { position: static; width: auto; height: auto; clip: auto; display: inline-block; margin: .5rem; }
.narrow { max-width: 28rem; margin: 3rem auto; }
.actions { display: flex; gap: .5rem; flex-wrap: wrap; }
`;

const SCRIPT = String.raw`
(function () {
  'use strict';
  var base = document.body.getAttribute('data-base');
  var root = document.getElementById('app');
  var live = document.getElementById('live');
  var session = null;

  function h(tag, attrs) {
    var node = document.createElement(tag);
    var rest = Array.prototype.slice.call(arguments, 2);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === undefined || value === null || value === false) return;
      if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2), value);
      else if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    });
    rest.forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
    });
    return node;
  }

  function say(message, kind) {
    live.textContent = '';
    live.className = 'notice ' + (kind || 'ok');
    live.hidden = false;
    live.textContent = message;
  }
  function quiet() { live.hidden = true; live.textContent = ''; }

  function when(iso) { return iso ? new Date(iso).toLocaleString() : '—'; }

  function call(method, path, body) {
    var headers = { 'Accept': 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && session) headers['X-CSRF-Token'] = session.csrf_token;
    return fetch(base + '/api/' + path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' })
      .then(function (response) {
        return response.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
          if (response.ok) return data;
          if (response.status === 401 && data && data.code === 'SESSION_REQUIRED') { session = null; go('#/signin'); }
          var detail = data && data.detail;
          var message = Array.isArray(detail) ? detail.map(function (d) { return d.msg; }).join('; ') : (detail || ('The request failed (' + response.status + ').'));
          var error = new Error(message);
          error.code = data && data.code;
          throw error;
        });
      });
  }

  function fail(error) { say(error.message, 'error'); }

  function go(hash) { if (location.hash !== hash) location.hash = hash; else render(); }

  function field(label, attrs) {
    return h('label', {}, label, h('input', attrs));
  }

  function page(title, current) {
    var links = [['#/overview', 'Overview'], ['#/keys', 'API keys'], ['#/jobs', 'Jobs'], ['#/webhooks', 'Webhooks'], ['#/profiles', 'Profiles']];
    var nav = h('nav', { 'aria-label': 'Portal' }, h('ul', {}, links.map(function (link) {
      return h('li', {}, h('a', { href: link[0], 'aria-current': link[0] === current ? 'page' : null, text: link[1] }));
    }).reduce(function (list, item) { list.appendChild(item); return list; }, document.createDocumentFragment())));
    var signOut = h('button', { type: 'button', class: 'secondary', onclick: function () {
      call('POST', 'signout').then(function () { session = null; go('#/signin'); }, fail);
    } }, 'Sign out');
    var header = h('header', {}, h('h1', {}, 'Developer portal'), nav, h('span', { class: 'muted', text: session ? session.email : '' }), signOut);
    var main = h('main', { id: 'main', tabindex: '-1' }, h('h2', { text: title }));
    root.replaceChildren(header, main);
    document.title = title + ' · Developer portal';
    return main;
  }

  function table(columns, rows) {
    var head = h('tr', {});
    columns.forEach(function (column) { head.appendChild(h('th', { scope: 'col', class: column.num ? 'num' : null, text: column.title })); });
    var body = h('tbody', {});
    rows.forEach(function (row) { body.appendChild(row); });
    return h('table', {}, h('thead', {}, head), body);
  }

  function row(cells) {
    var tr = h('tr', {});
    cells.forEach(function (cell) {
      var td = h('td', { class: cell && cell.num ? 'num' : null });
      var content = cell && cell.node !== undefined ? cell.node : cell;
      if (content !== null && content !== undefined) td.appendChild(typeof content === 'string' || typeof content === 'number' ? document.createTextNode(String(content)) : content);
      tr.appendChild(td);
    });
    return tr;
  }

  function badge(text) { return h('span', { class: 'status ' + text, text: text }); }

  // ---- sign-up and sign-in ----

  function signUpView(params) {
    var main = h('main', { id: 'main', class: 'narrow' }, h('h2', {}, 'Create your account'));
    root.replaceChildren(main);
    document.title = 'Create your account · Developer portal';
    var invitation = params.get('invitation') || '';
    var form = h('form', { onsubmit: function (event) {
      event.preventDefault();
      var data = new FormData(form);
      call('POST', 'signup', { invitation: invitation, email: data.get('email'), password: data.get('password'), name: data.get('name') || undefined })
        .then(function (created) { session = created; go('#/overview'); }, fail);
    } },
      field('E-mail (the invited address)', { name: 'email', type: 'email', required: true, autocomplete: 'email' }),
      field('Account name (optional)', { name: 'name', type: 'text', autocomplete: 'organization' }),
      field('Password (at least 12 characters)', { name: 'password', type: 'password', required: true, minlength: 12, autocomplete: 'new-password' }),
      h('button', { type: 'submit' }, 'Create account'));
    if (!invitation) main.appendChild(h('p', { class: 'notice error', text: 'This page needs the invitation link your operator sent you.' }));
    main.appendChild(form);
    main.appendChild(h('p', {}, 'Already have an account? ', h('a', { href: '#/signin' }, 'Sign in')));
  }

  function signInView() {
    var main = h('main', { id: 'main', class: 'narrow' }, h('h2', {}, 'Sign in'));
    root.replaceChildren(main);
    document.title = 'Sign in · Developer portal';
    var form = h('form', { onsubmit: function (event) {
      event.preventDefault();
      var data = new FormData(form);
      call('POST', 'signin', { email: data.get('email'), password: data.get('password') })
        .then(function (created) { session = created; quiet(); go('#/overview'); }, fail);
    } },
      field('E-mail', { name: 'email', type: 'email', required: true, autocomplete: 'username' }),
      field('Password', { name: 'password', type: 'password', required: true, autocomplete: 'current-password' }),
      h('button', { type: 'submit' }, 'Sign in'));
    main.appendChild(form);
  }

  // ---- overview: balance, spend chart, ledger ----

  function spendChart(days) {
    var width = 720, height = 190, pad = 24;
    var max = Math.max.apply(null, days.map(function (d) { return Math.max(0, d.spent.micro_usd); }).concat([1]));
    var barWidth = (width - pad) / days.length;
    var svgNs = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    svg.setAttribute('class', 'chart');
    svg.setAttribute('role', 'img');
    var total = days.reduce(function (sum, d) { return sum + d.spent.micro_usd; }, 0);
    svg.setAttribute('aria-label', 'Spend per day over the last ' + days.length + ' days: ' + (total / 1e6).toFixed(2) + ' USD in total');
    var top = document.createElementNS(svgNs, 'text');
    top.setAttribute('x', String(pad));
    top.setAttribute('y', '10');
    top.textContent = 'max ' + (max / 1e6).toFixed(2) + ' USD a day';
    svg.appendChild(top);
    days.forEach(function (day, index) {
      var value = Math.max(0, day.spent.micro_usd);
      var barHeight = Math.round((height - pad - 16) * value / max);
      var rect = document.createElementNS(svgNs, 'rect');
      rect.setAttribute('class', 'bar');
      rect.setAttribute('x', String(pad + index * barWidth + 1));
      rect.setAttribute('y', String(height - pad - barHeight));
      rect.setAttribute('width', String(Math.max(1, barWidth - 2)));
      rect.setAttribute('height', String(barHeight));
      var title = document.createElementNS(svgNs, 'title');
      title.textContent = day.date + ': ' + day.spent.usd + ' USD';
      rect.appendChild(title);
      svg.appendChild(rect);
      if ((days.length - 1 - index) % 7 === 0) {
        var label = document.createElementNS(svgNs, 'text');
        var last = index === days.length - 1;
        label.setAttribute('x', String(last ? width : pad + index * barWidth + barWidth / 2));
        label.setAttribute('text-anchor', last ? 'end' : 'middle');
        label.setAttribute('y', String(height - 6));
        label.textContent = day.date.slice(5);
        svg.appendChild(label);
      }
    });
    return svg;
  }

  function overviewView() {
    var main = page('Overview', '#/overview');
    var cards = h('div', { class: 'cards' });
    var chartCard = h('section', { class: 'card', 'aria-labelledby': 'spend-title' }, h('h3', { id: 'spend-title' }, 'Spend per day (30 days)'));
    var ledgerSection = h('section', { 'aria-labelledby': 'ledger-title' }, h('h3', { id: 'ledger-title' }, 'Ledger'));
    main.append(cards, chartCard, ledgerSection);
    call('GET', 'account').then(function (account) {
      cards.append(
        h('div', { class: 'card' }, h('div', { class: 'muted' }, 'Balance'), h('div', { class: 'figure', 'data-testid': 'balance', text: account.balance.usd + ' USD' })),
        h('div', { class: 'card' }, h('div', { class: 'muted' }, 'Limits'), h('div', {}, account.limits.requests_per_minute + ' requests a minute'), h('div', {}, account.limits.running_jobs + ' jobs running at once')),
        h('div', { class: 'card' }, h('div', { class: 'muted' }, 'Default model version'), h('div', { class: 'figure', text: account.default_model_version })));
    }, fail);
    call('GET', 'spend?days=30').then(function (spend) {
      chartCard.appendChild(spendChart(spend.days));
      if (spend.truncated) chartCard.appendChild(h('p', { class: 'muted', text: 'The oldest days are incomplete: too many entries to sum.' }));
    }, fail);
    var rows = h('tbody', {});
    var more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Older entries');
    var cursor = null;
    function load() {
      call('GET', 'ledger?limit=20' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '')).then(function (page) {
        page.entries.forEach(function (entry) {
          rows.appendChild(row([when(entry.created_at), entry.kind, { num: true, node: entry.amount.usd }, { num: true, node: entry.balance_after.usd }, entry.job_id || entry.profile_id || entry.note || '']));
        });
        cursor = page.next_cursor;
        more.hidden = !cursor;
      }, fail);
    }
    more.addEventListener('click', load);
    var ledger = table([{ title: 'When' }, { title: 'Kind' }, { title: 'Amount (USD)', num: true }, { title: 'Balance after (USD)', num: true }, { title: 'For' }], []);
    ledger.replaceChild(rows, ledger.querySelector('tbody'));
    ledgerSection.append(ledger, h('p', {}, more));
    load();
  }

  // ---- API keys ----

  function keysView() {
    var main = page('API keys', '#/keys');
    var shown = h('div', {});
    var form = h('form', { class: 'inline', onsubmit: function (event) {
      event.preventDefault();
      var name = new FormData(form).get('name');
      call('POST', 'keys', { name: name }).then(function (created) {
        form.reset();
        var input = h('input', { id: 'new-key', class: 'mono', readonly: true, value: created.api_key, 'aria-describedby': 'new-key-note' });
        var copy = h('button', { type: 'button', onclick: function () {
          input.select();
          (navigator.clipboard ? navigator.clipboard.writeText(created.api_key) : Promise.reject(new Error('no clipboard')))
            .then(function () { say('The key is copied.'); }, function () { document.execCommand('copy'); say('The key is selected; copy it now.'); });
        } }, 'Copy');
        shown.replaceChildren(h('div', { class: 'card' },
          h('label', { for: 'new-key' }, 'Your new key "' + created.name + '"'),
          h('div', { class: 'secret' }, input, copy),
          h('p', { id: 'new-key-note', class: 'muted', text: 'It is shown this once: only its hash is kept. Store it now.' })));
        input.focus();
        list();
      }, fail);
    } }, field('Name', { name: 'name', required: true, maxlength: 80, placeholder: 'e.g. production server' }), h('button', { type: 'submit' }, 'Create key'));
    var holder = h('div', {});
    main.append(form, shown, holder);
    function list() {
      call('GET', 'keys').then(function (answer) {
        holder.replaceChildren(table([{ title: 'Name' }, { title: 'Key id' }, { title: 'Created' }, { title: 'Last used' }, { title: 'Status' }, { title: '' }], answer.keys.map(function (key) {
          var revoke = key.revoked_at ? null : h('button', { type: 'button', class: 'danger', 'aria-label': 'Revoke ' + (key.name || key.key_id), onclick: function () {
            if (!confirm('Revoke this key? Requests made with it will be refused.')) return;
            call('POST', 'keys/' + encodeURIComponent(key.key_id) + '/revoke').then(function () { say('The key is revoked.'); list(); }, fail);
          } }, 'Revoke');
          return row([key.name || '(unnamed)', { node: h('code', { text: key.key_id }) }, when(key.created_at), key.last_used_at ? when(key.last_used_at) : 'never', { node: badge(key.revoked_at ? 'revoked' : 'active') }, revoke]);
        })));
      }, fail);
    }
    list();
  }

  // ---- jobs and their deliveries ----

  function deliveriesRow(job, span) {
    var cell = h('td', { colspan: span });
    var tr = h('tr', { class: 'deliveries' }, cell);
    function load() {
      call('GET', 'jobs/' + encodeURIComponent(job.job_id) + '/deliveries').then(function (log) {
        var redeliver = h('button', { type: 'button', class: 'secondary', onclick: function () {
          call('POST', 'jobs/' + encodeURIComponent(job.job_id) + '/deliveries/redeliver', {}).then(function (queued) {
            say('A new delivery (' + queued.delivery_id + ') is queued to ' + queued.callback_url + '.');
            setTimeout(load, 1500);
          }, fail);
        } }, 'Redeliver');
        var attempts = log.attempts.length === 0
          ? h('p', { class: 'muted', text: log.callback_url ? 'No attempt yet.' : 'This job was submitted without a callback_url.' })
          : table([{ title: 'Delivery' }, { title: 'Attempt', num: true }, { title: 'When' }, { title: 'Answer' }, { title: 'Latency (ms)', num: true }, { title: 'Last' }], log.attempts.map(function (attempt) {
            return row([{ node: h('code', { text: attempt.delivery_id }) }, { num: true, node: attempt.attempt }, when(attempt.at), attempt.response_status !== null ? String(attempt.response_status) : attempt.error, { num: true, node: attempt.latency_ms }, attempt.last ? 'yes' : 'no']);
          }));
        cell.replaceChildren(h('div', { class: 'card' }, h('h3', { text: 'Callback deliveries of ' + job.job_id }), h('p', { class: 'muted', text: log.callback_url || '' }), attempts, log.callback_url && (job.status === 'succeeded' || job.status === 'failed') ? h('p', {}, redeliver) : null));
      }, fail);
    }
    load();
    return tr;
  }

  function jobsView() {
    var main = page('Jobs', '#/jobs');
    var body = h('tbody', {});
    var columns = [{ title: 'Created' }, { title: 'Job' }, { title: 'Operation' }, { title: 'Status' }, { title: 'Cost (USD)', num: true }, { title: 'Completed' }, { title: 'Output' }, { title: '' }];
    var jobs = table(columns, []);
    jobs.replaceChild(body, jobs.querySelector('tbody'));
    var more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Older jobs');
    var cursor = null;
    main.append(jobs, h('p', {}, more));
    function load() {
      call('GET', 'jobs?limit=20' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '')).then(function (page) {
        if (!cursor && page.jobs.length === 0) body.appendChild(row([{ node: h('span', { class: 'muted', text: 'No jobs in the last 24 hours.' }) }]));
        page.jobs.forEach(function (job) {
          var link = job.result && job.result.download_urls[0];
          var output = link ? h('a', { href: link, 'aria-label': 'Output of ' + job.job_id }, h('img', { class: 'thumb', src: link, alt: 'Output of ' + job.job_id, loading: 'lazy' })) : null;
          var cost = job.cost ? (job.cost.final !== null ? job.cost.final : job.cost.reserved + ' reserved') : '—';
          var open = null;
          var toggle = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false', onclick: function () {
            if (open) { open.remove(); open = null; toggle.setAttribute('aria-expanded', 'false'); return; }
            open = deliveriesRow(job, columns.length);
            tr.after(open);
            toggle.setAttribute('aria-expanded', 'true');
          } }, 'Deliveries');
          var tr = row([when(job.created_at), { node: h('code', { text: job.job_id }) }, job.operation, { node: badge(job.status) }, { num: true, node: cost }, when(job.completed_at), output, toggle]);
          body.appendChild(tr);
        });
        cursor = page.next_cursor;
        more.hidden = !cursor;
      }, fail);
    }
    more.addEventListener('click', load);
    load();
  }

  // ---- webhooks ----

  function webhooksView() {
    var main = page('Webhooks', '#/webhooks');
    var input = h('input', { id: 'secret', class: 'mono', type: 'password', readonly: true, value: '', 'aria-label': 'Current signing secret' });
    var reveal = h('button', { type: 'button', class: 'secondary', 'aria-pressed': 'false', onclick: function () {
      var hidden = input.type === 'password';
      input.type = hidden ? 'text' : 'password';
      reveal.textContent = hidden ? 'Hide' : 'Reveal';
      reveal.setAttribute('aria-pressed', hidden ? 'true' : 'false');
    } }, 'Reveal');
    var previous = h('p', { class: 'muted' });
    function show(answer) {
      input.value = answer.webhook_signing_secret;
      previous.textContent = answer.previous_secret_expires_at ? 'The previous secret still signs until ' + when(answer.previous_secret_expires_at) + '.' : '';
    }
    var rotate = h('button', { type: 'button', class: 'danger', onclick: function () {
      if (!confirm('Rotate the signing secret? For 24 hours callbacks are signed with both secrets.')) return;
      call('POST', 'webhook-secret/rotate').then(function (answer) { show(answer); say('The secret is rotated.'); }, fail);
    } }, 'Rotate');
    var result = h('div', { 'aria-live': 'polite' });
    var test = h('form', { class: 'inline', onsubmit: function (event) {
      event.preventDefault();
      call('POST', 'webhook-test', { url: new FormData(test).get('url') }).then(function (answer) {
        result.replaceChildren(h('p', { class: 'notice ' + (answer.delivered ? 'ok' : 'error'),
          text: (answer.delivered ? 'Delivered: ' : 'Not delivered: ') + (answer.response_status !== null ? 'HTTP ' + answer.response_status : answer.error) + ' in ' + answer.latency_ms + ' ms (delivery ' + answer.delivery_id + ').' }));
      }, fail);
    } }, field('Receiver URL (https)', { name: 'url', type: 'url', required: true, placeholder: 'https://example.com/webhooks' }), h('button', { type: 'submit' }, 'Send a test event'));
    main.append(
      h('section', { class: 'card', 'aria-labelledby': 'secret-title' }, h('h3', { id: 'secret-title' }, 'Signing secret'), h('div', { class: 'secret' }, input, reveal, rotate), previous),
      h('section', { class: 'card', 'aria-labelledby': 'test-title' }, h('h3', { id: 'test-title' }, 'Test a receiver'), test, result));
    call('GET', 'webhook-secret').then(show, fail);
  }

  // ---- profiles ----

  function profilesView() {
    var main = page('Profiles', '#/profiles');
    var holder = h('div', {});
    main.appendChild(holder);
    function list() {
      call('GET', 'profiles').then(function (answer) {
        if (answer.profiles.length === 0) { holder.replaceChildren(h('p', { class: 'muted', text: 'No profiles yet: create one with POST /v2/service/profiles/add.' })); return; }
        holder.replaceChildren(table([{ title: 'Picture' }, { title: 'Profile' }, { title: 'Status' }, { title: 'Tag' }, { title: 'Model version' }, { title: 'Created' }, { title: '' }], answer.profiles.map(function (profile) {
          var picture = profile.has_picture ? h('img', { class: 'picture', src: base + '/api/profiles/' + encodeURIComponent(profile.profile_id) + '/picture', alt: 'Picture of ' + profile.profile_id }) : h('span', { class: 'muted', text: 'none yet' });
          var remove = h('button', { type: 'button', class: 'danger', 'aria-label': 'Delete ' + profile.profile_id, onclick: function () {
            if (!confirm('Delete this profile and its photos? This cannot be undone.')) return;
            call('DELETE', 'profiles/' + encodeURIComponent(profile.profile_id)).then(function () { say('The profile is deleted.'); list(); }, fail);
          } }, 'Delete');
          return row([{ node: picture }, { node: h('code', { text: profile.profile_id }) }, { node: badge(profile.status) }, profile.tag || '—', profile.model_version, when(profile.created_at), remove]);
        })));
      }, fail);
    }
    list();
  }

  var VIEWS = { '#/overview': overviewView, '#/keys': keysView, '#/jobs': jobsView, '#/webhooks': webhooksView, '#/profiles': profilesView };

  function render() {
    var hash = location.hash || '#/overview';
    var path = hash.split('?')[0];
    var params = new URLSearchParams(hash.indexOf('?') >= 0 ? hash.slice(hash.indexOf('?') + 1) : '');
    if (path === '#/signup') return signUpView(params);
    if (path === '#/signin') return signInView();
    var view = VIEWS[path] || overviewView;
    if (session) { quiet(); return view(); }
    call('GET', 'session').then(function (current) { session = current; quiet(); view(); }, function () { go('#/signin'); });
  }

  window.addEventListener('hashchange', function () { quiet(); render(); var main = document.getElementById('main'); if (main) main.focus(); });
  render();
})();
`;

export const PORTAL_SCRIPT = named(SCRIPT, 'js');
export const PORTAL_STYLE = named(STYLE, 'css');

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The shell: `prefix` is the stage path the API is served under (empty locally, e.g. `/prod` on AWS). */
export const portalPage = (prefix: string): string => {
  const base = escapeAttribute(`${prefix}/portal`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Developer portal</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/${PORTAL_STYLE.name}">
</head>
<body data-base="${base}">
<a class="visually-hidden" href="#main">Skip to content</a>
<div id="live" class="notice" role="status" aria-live="polite" hidden></div>
<div id="app"></div>
<script src="${base}/${PORTAL_SCRIPT.name}"></script>
</body>
</html>
`;
};
