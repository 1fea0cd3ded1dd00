/*
 * The merchant dashboard (docs/dashboard.md): plain browser JavaScript, no build step. It reads
 * its link token from the URL's fragment (never sent to a server), keeps it for this tab only and
 * calls the service's JSON API with it: the report, the order search, an order and its webhook
 * deliveries. Every text from the API is set as text, never as HTML.
 */
(() => {
  const LINK_KEY = 'payment-rescue-dashboard-link';
  const DAY_MS = 86_400_000;
  const FIGURES = [
    ['evaluated', 'Evaluated'],
    ['approved', 'Approved at once'],
    ['declined', 'Declined'],
    ['submitted', 'Submitted for rescue'],
    ['rescued', 'Rescued'],
    ['expired', 'Expired'],
    ['recovered', 'Recovered revenue'],
    ['rescueRate', 'Rescue rate'],
    ['attemptsPerRescue', 'Attempts per rescue'],
    ['medianTimeToRescueSeconds', 'Median time to rescue'],
  ];
  const charts = {};
  const $ = (id) => document.getElementById(id);

  /** The link's token: from the fragment on first load (then removed from the address bar), else this tab's copy. */
  function linkToken() {
    const match = /(?:^#|&)link=([^&]+)/.exec(location.hash);
    if (match) {
      sessionStorage.setItem(LINK_KEY, decodeURIComponent(match[1]));
      history.replaceState(null, '', location.pathname + location.search);
    }
    return sessionStorage.getItem(LINK_KEY);
  }

  class Refused extends Error {}

  async function api(path) {
    const res = await fetch(path, { headers: { authorization: `Bearer ${linkToken()}`, accept: 'application/json' } });
    const body = await res.json().catch(() => ({}));
    if (res.ok) return body;
    const error = body.error || {};
    if (res.status === 401) {
      refuse(error.id, error.message);
      throw new Refused(error.id);
    }
    throw new Error(`${error.id || res.status}: ${error.message || res.statusText}`);
  }

  function refuse(id, message) {
    $('main').hidden = true;
    $('status').textContent = '';
    const box = $('refused');
    box.dataset.errorId = id || '';
    $('refused-text').textContent = `${message || 'This link is not valid.'} (error ${id || 'unknown'})`;
    box.hidden = false;
  }

  function say(text) {
    $('status').textContent = text;
  }

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function row(cells) {
    const tr = document.createElement('tr');
    for (const cell of cells) {
      const td = document.createElement('td');
      if (cell instanceof Node) td.append(cell);
      else td.textContent = cell === null || cell === undefined ? '—' : String(cell);
      tr.append(td);
    }
    return tr;
  }

  function fill(tableId, rows, empty) {
    const body = $(tableId).tBodies[0];
    body.replaceChildren(...rows);
    if (!rows.length) {
      const cols = $(tableId).tHead.rows[0].cells.length;
      const td = el('td', empty, { colspan: String(cols) });
      const tr = el('tr');
      tr.append(td);
      body.append(tr);
    }
  }

  /**
   * Minor units as the currency's major units, by the service's exponents (currencies.js: JPY
   * none, IQD three, every other two), never the browser's, whose currency data differs.
   */
  function minorDigits(currency) {
    const exceptions = window.fcMinorUnits || {};
    return Object.hasOwn(exceptions, currency) ? exceptions[currency] : 2;
  }
  function major(amount, currency) {
    return amount / 10 ** minorDigits(currency);
  }
  function money(amount, currency) {
    const digits = minorDigits(currency);
    const format = { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits };
    return new Intl.NumberFormat('en', format).format(major(amount, currency));
  }
  function moneyList(recovered) {
    return recovered.length ? recovered.map((r) => money(r.amount, r.currency)).join(', ') : 'none';
  }
  function when(iso) {
    return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—';
  }
  function duration(seconds) {
    if (seconds === null) return '—';
    if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
    if (seconds < 2 * 86400) return `${(seconds / 3600).toFixed(1)} h`;
    return `${(seconds / 86400).toFixed(1)} days`;
  }
  function figureText(key, value) {
    if (key === 'recovered') return moneyList(value);
    if (value === null) return '—';
    if (key === 'rescueRate') return `${(value * 100).toFixed(1)} %`;
    if (key === 'attemptsPerRescue') return value.toFixed(2);
    if (key === 'medianTimeToRescueSeconds') return duration(value);
    return String(value);
  }
  function orderLink(orderId, text) {
    return el('a', text || orderId, { href: `#order=${encodeURIComponent(orderId)}` });
  }

  /** The period's bounds for the report: [from 00:00 UTC, day after `to` 00:00 UTC). */
  function period() {
    const from = $('from').value;
    const to = new Date(Date.parse(`${$('to').value}T00:00:00Z`) + DAY_MS).toISOString();
    return { from: `${from}T00:00:00.000Z`, to };
  }

  async function report(groupBy) {
    const { from, to } = period();
    return api(`/v1/reports/rescues?${new URLSearchParams({ from, to, groupBy })}`);
  }

  function renderTotals(totals) {
    const items = FIGURES.map(([key, label]) => {
      const div = el('div');
      const value = totals[key];
      div.append(
        el('dt', label),
        el('dd', figureText(key, value), { 'data-figure': key, 'data-value': JSON.stringify(value) }),
      );
      return div;
    });
    $('totals').replaceChildren(...items);
  }

  function chart(id, config) {
    if (charts[id]) charts[id].destroy();
    if (typeof window.Chart !== 'function') return; // the tables below carry the same figures
    charts[id] = new window.Chart($(id), config);
  }

  function renderRecovered(byDay) {
    const currencies = [...new Set(byDay.groups.flatMap((g) => g.recovered.map((r) => r.currency)))].sort();
    const palette = ['#0b4fa8', '#b35900', '#1d6b2f', '#6a1b9a'];
    chart('recovered-chart', {
      type: 'line',
      data: {
        labels: byDay.groups.map((g) => g.key),
        datasets: currencies.map((currency, i) => ({
          label: currency,
          borderColor: palette[i % palette.length],
          backgroundColor: palette[i % palette.length],
          data: byDay.groups.map((g) => major(g.recovered.find((r) => r.currency === currency)?.amount ?? 0, currency)),
        })),
      },
      options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true } } },
    });
    fill(
      'recovered-table',
      byDay.groups.map((g) => row([g.key, moneyList(g.recovered), g.rescued])),
      'No rescues in this period.',
    );
  }

  function renderRates(byCode) {
    chart('rate-chart', {
      type: 'bar',
      data: {
        labels: byCode.groups.map((g) => g.key),
        datasets: [
          {
            label: 'Rescue rate (%)',
            backgroundColor: '#0b4fa8',
            data: byCode.groups.map((g) => (g.rescueRate === null ? 0 : g.rescueRate * 100)),
          },
        ],
      },
      options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true, max: 100 } } },
    });
    fill(
      'rate-table',
      byCode.groups.map((g) => row([g.key, g.submitted, g.rescued, figureText('rescueRate', g.rescueRate)])),
      'No declines in this period.',
    );
  }

  function renderOpen(open) {
    $('open-count').textContent = `(${open.count})`;
    fill(
      'open-table',
      open.items.map((o) =>
        row([orderLink(o.orderId, o.externalOrderId), money(o.amount, o.currency), o.attempts, when(o.nextAttemptAt)]),
      ),
      'No rescue is open.',
    );
  }

  async function loadReports() {
    say('Loading the figures…');
    const [byDay, byCode] = await Promise.all([report('day'), report('declineCode')]);
    renderTotals(byDay.totals);
    renderRecovered(byDay);
    renderRates(byCode);
    renderOpen(byDay.openRescues);
    say(`Figures from ${$('from').value} to ${$('to').value} (UTC).`);
  }

  async function loadOrders(externalOrderId) {
    const query = new URLSearchParams({ limit: '25' });
    if (externalOrderId) query.set('externalOrderId', externalOrderId);
    const page = await api(`/v1/orders?${query}`);
    $('orders-caption').textContent = externalOrderId
      ? `Orders whose externalOrderId is “${externalOrderId}”: ${page.data.length}`
      : 'The newest orders';
    fill(
      'orders-table',
      page.data.map((o) =>
        row([
          orderLink(o.orderId, o.externalOrderId),
          when(o.createdAtUtc),
          o.statusName,
          o.outcome,
          money(o.amounts.requested, o.currency),
        ]),
      ),
      externalOrderId ? 'No order has this externalOrderId.' : 'No orders yet.',
    );
  }

  function attemptItem(a) {
    const li = el('li');
    li.append(
      el('time', when(a.createdAtUtc), { datetime: a.createdAtUtc }),
      el('span', ` Attempt ${a.attempt}: ${a.kind}, ${a.result || a.state}`),
    );
    const details = [a.networkCode && `network code ${a.networkCode}`, a.advice && `advice ${a.advice}`].filter(
      Boolean,
    );
    if (details.length) li.append(el('span', ` (${details.join('; ')})`));
    return li;
  }

  async function showOrder(orderId) {
    const section = $('order');
    const [order, deliveries] = await Promise.all([
      api(`/v1/orders/${encodeURIComponent(orderId)}`),
      api(`/v1/orders/${encodeURIComponent(orderId)}/webhook-deliveries`),
    ]);
    $('order-heading').textContent = `Order ${order.externalOrderId}`;
    const summary = [
      ['Status', order.statusName],
      ['Outcome', order.outcome],
      ['Flow', order.flow],
      ['Amount', money(order.amounts.requested, order.currency)],
      ['Captured', money(order.amounts.captured, order.currency)],
      ['Created', when(order.createdAtUtc)],
      ['Rescue window ends', when(order.rescueWindowEndsAtUtc)],
    ].map(([label, value]) => {
      const div = el('div');
      div.append(el('dt', label), el('dd', value));
      return div;
    });
    $('order-summary').replaceChildren(...summary);
    const attempts = order.attempts.map(attemptItem);
    $('attempts').replaceChildren(...(attempts.length ? attempts : [el('li', 'No charge attempt yet.')]));
    fill(
      'deliveries-table',
      deliveries.data.map((d) => {
        const last = d.attempts[d.attempts.length - 1];
        const answer = last ? `${last.statusCode ?? last.error ?? '—'} at ${when(last.startedAt)}` : 'not yet sent';
        return row([d.event, d.endpointId, d.status, d.attempts.length, answer]);
      }),
      'No webhook was sent about this order.',
    );
    section.hidden = false;
    $('order-heading').focus();
  }

  async function route() {
    const match = /^#order=([^&]+)/.exec(location.hash);
    if (!match) {
      $('order').hidden = true;
      return;
    }
    await showOrder(decodeURIComponent(match[1]));
  }

  function guard(promise) {
    promise.catch((err) => {
      if (!(err instanceof Refused)) say(`Could not load: ${err.message}`);
    });
  }

  function start() {
    if (!linkToken()) {
      refuse('', 'Open the dashboard from a link your back office gives you.');
      return;
    }
    const today = new Date().toISOString().slice(0, 10);
    $('to').value = today;
    $('from').value = new Date(Date.parse(today) - 29 * DAY_MS).toISOString().slice(0, 10);
    $('range').addEventListener('submit', (event) => {
      event.preventDefault();
      guard(loadReports());
    });
    $('search').addEventListener('submit', (event) => {
      event.preventDefault();
      guard(loadOrders($('external-order-id').value.trim()));
    });
    $('clear-search').addEventListener('click', () => {
      $('external-order-id').value = '';
      guard(loadOrders(''));
    });
    window.addEventListener('hashchange', () => guard(route()));
    $('main').hidden = false;
    // Each part says when it is shown (the browser tests wait on these), and fails on its own.
    guard(loadReports().then(() => (document.body.dataset.figures = 'shown')));
    guard(
      loadOrders('').then(() => {
        document.body.dataset.orders = 'shown';
        return route();
      }),
    );
  }

  start();
})();
