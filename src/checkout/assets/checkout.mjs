/* global document, window, EventSource */
// The checkout pages' one script, a module from the gateway's own origin (no inline script: the
// Content-Security-Policy allows none). It reads what src/checkout/render/pages.ts writes into the
// page: it copies the Pix code, counts the time left down, and follows the page's state live
// (server-sent events from /pay/<token>/events; polling /pay/<token>/status every 2 s while
// those are not connected), telling screen readers of each change through the status line. The
// page works without it: every state is rendered by the server, and a reload shows the current one.

const POLL_MS = 2000;
const FINAL = new Set(['paid', 'expired', 'cancelled', 'failed', 'refunded', 'authorized', 'rejected']);

const main = document.getElementById('main');
setUpCopy();
if (main && main.dataset.live && !FINAL.has(main.dataset.state)) follow(main, main.dataset.live);

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
