/* global document, window, EventSource */
// The checkout pages' one script, a module from the gateway's own origin (no inline script: the
// Content-Security-Policy allows none). It reads what src/checkout/render/pages.ts writes into the
// page: it copies the Pix code, counts the time left down, and follows the page's state live
// (server-sent events from /pay/<token>/events; polling /pay/<token>/status every 2 s while
// those are not connected), telling screen readers of each change through the status line; on a
// payment link's page it checks the form by the server's rules before it is sent (the server checks
// again: src/payment-links/payment-link-rules.ts, checkPayerForm). The
// page works without it: every state is rendered by the server, and a reload shows the current one.

const POLL_MS = 2000;
const FINAL = new Set(['paid', 'expired', 'cancelled', 'failed', 'refunded', 'authorized', 'rejected']);

const main = document.getElementById('main');
setUpCopy();
if (main && main.dataset.live && !FINAL.has(main.dataset.state)) follow(main, main.dataset.live);
const linkForm = document.getElementById('link-form');
if (linkForm) checkBeforeSending(linkForm);

/** The copy button: the Clipboard API, or selecting the code and the older copy command where that is refused. */
function setUpCopy() {
  const button = document.getElementById('copy-code');
  const code = document.getElementById('pix-code');
  const said = document.getElementById('copy-status');
  if (!button || !code || !said) return;
  button.addEventListener('click', async () => {
    let copied = false;
    try {
      await navigator.clipboard.writeText(code.value);
      copied = true;
    } catch {
      code.focus();
      code.select();
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
    }
    // Emptied first, so that a second copy is announced again.
    said.textContent = '';
    window.requestAnimationFrame(() => (said.textContent = copied ? button.dataset.copied : button.dataset.failed));
  });
}

function follow(main, base) {
  let state = main.dataset.state;
  let source;
  let pollTimer;
  let polling = false;
  const stopTimer = countDown(() => poll());

  const apply = (live) => {
    if (!live || typeof live.status !== 'string') return;
    if (typeof live.amountDue === 'number') showAmountDue(live.amountDue, main.dataset.locale);
    if (live.status === state) return;
    state = live.status;
    main.dataset.state = state;
    const focused = document.activeElement;
    let focusLost = false;
    for (const section of document.querySelectorAll('[data-when]')) {
      section.hidden = section.dataset.when !== state;
      if (section.hidden && focused && section.contains(focused)) focusLost = true;
    }
    const status = document.getElementById('status');
    if (status) {
      status.dataset.status = state;
      status.textContent = status.getAttribute(`data-text-${state}`) || state;
    }
    // A keyboard user whose focus was on what just disappeared continues from the new state's title.
    const title = document.querySelector(`[data-when="${state}"] .ending-title`);
    if (focusLost && title) {
      title.setAttribute('tabindex', '-1');
      title.focus();
    }
    if (FINAL.has(state)) stop();
  };

  const stop = () => {
    polling = false;
    clearTimeout(pollTimer);
    if (source) source.close();
    source = undefined;
    stopTimer();
  };

  async function poll() {
    clearTimeout(pollTimer);
    try {
      const res = await fetch(`${base}/status`, { cache: 'no-store', headers: { accept: 'application/json' } });
      if (res.ok) apply(await res.json());
      else if (res.status === 404) return stop();
    } catch {
      // Offline for a moment: the next poll tries again.
    }
    if (polling && !FINAL.has(state)) pollTimer = setTimeout(poll, POLL_MS);
  }

  const startPolling = () => {
    if (polling || FINAL.has(state)) return;
    polling = true;
    void poll();
  };

  if (typeof EventSource !== 'function') return startPolling();
  source = new EventSource(`${base}/events`);
  source.addEventListener('status', (event) => {
    try {
      apply(JSON.parse(event.data));
    } catch {
      // Not a state: ignored.
    }
  });
  // Connected: the stream says what changes, polling stops. Lost (the browser reconnects by itself
  // unless the server refused the stream): polling covers the gap.
  source.addEventListener('open', () => {
    polling = false;
    clearTimeout(pollTimer);
  });
  source.addEventListener('error', () => {
    if (source && source.readyState === EventSource.CLOSED) source = undefined;
    startPolling();
  });
}

/** The timer: the time left to pay, by the server's clock; at zero, `onTimeUp` asks for the state once. */
function countDown(onTimeUp) {
  const timer = document.querySelector('.timer[data-expires-at]');
  const out = document.getElementById('time-left');
  if (!timer || !out) return () => undefined;
  const skew = Number(timer.dataset.serverNow) - Date.now();
  const end = Date.parse(timer.dataset.expiresAt);
  let interval;
  const tick = () => {
    const left = end - (Date.now() + skew);
    out.textContent = timeLeft(left);
    if (left <= 0) {
      clearInterval(interval);
      const note = document.createElement('span');
      note.className = 'time-up';
      note.textContent = ` ${timer.dataset.timeUp}`;
      timer.append(note);
      onTimeUp();
    }
  };
  interval = setInterval(tick, 1000);
  tick();
  return () => clearInterval(interval);
}

function timeLeft(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(min)}:${two(s)}` : `${min}:${two(s)}`;
}

function showAmountDue(reais, locale) {
  const out = document.querySelector('[data-amount-due]');
  if (!out) return;
  const text = new Intl.NumberFormat(locale || 'pt-BR', { style: 'currency', currency: 'BRL' }).format(reais);
  if (out.textContent !== text) out.textContent = text;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A payment link's form: each field checked as the server will (name 1 to 140 characters, a CPF
 * or CNPJ with its check digits, an e-mail, an amount within the range), its error shown under it
 * and the first wrong field focused; a form sent once is not sent again by a second click.
 */
function checkBeforeSending(form) {
  let sent = false;
  // Back to a form already sent (the browser's page cache): it may be sent again.
  window.addEventListener('pageshow', () => (sent = false));
  form.addEventListener('submit', (event) => {
    let first;
    for (const input of form.querySelectorAll('input[data-error]')) {
      const out = document.getElementById(`${input.id}-error`);
      const wrong = isWrong(input);
      if (wrong) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      if (out) {
        out.textContent = wrong ? input.dataset.error : '';
        out.hidden = !wrong;
      }
      if (wrong && !first) first = input;
    }
    if (first || sent) {
      event.preventDefault();
      if (first) first.focus();
      return;
    }
    sent = true;
  });
}

function isWrong(input) {
  const value = input.value.trim();
  switch (input.name) {
    case 'name':
      return value.length < 1 || value.length > 140 || CONTROL.test(value);
    case 'document':
      return !isCpfOrCnpj(value);
    case 'email':
      return value.length > 254 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
    case 'amount': {
      const cents = amountCents(value);
      return cents === undefined || cents < Number(input.dataset.min) || cents > Number(input.dataset.max);
    }
    default:
      return false;
  }
}

/** Module 11 over each character's ASCII code minus 48 (a CNPJ's letters count A=17 … Z=42). */
function checkDigit(digits, weights) {
  const sum = weights.reduce((acc, weight, i) => acc + (digits.charCodeAt(i) - 48) * weight, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

function isCpfOrCnpj(value) {
  if (!/^[0-9A-Za-z.\-/\s]+$/.test(value)) return false;
  const d = value.replace(/[.\-/\s]/g, '').toUpperCase();
  if (d.length === 11) {
    if (!/^\d{11}$/.test(d) || /^(\d)\1{10}$/.test(d)) return false;
    return checkDigit(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[9]) && checkDigit(d, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[10]);
  }
  if (d.length !== 14 || !/^[0-9A-Z]{12}\d{2}$/.test(d) || /^(\d)\1{13}$/.test(d)) return false;
  return checkDigit(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[12]) && checkDigit(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[13]);
}

/** Centavos of an amount as a payer types it (`1.234,56`, `25,9`, `25.90`, `30`), or undefined. */
function amountCents(typed) {
  const text = typed.replace(/^\s*R\$\s*/i, '').trim();
  if (text.length > 20) return undefined;
  const match = /^(\d+)\.(\d{1,2})$/.exec(text) || /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  const cents = Number(match[1].replace(/\./g, '')) * 100 + Number((match[2] || '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) && cents > 0 ? cents : undefined;
}
