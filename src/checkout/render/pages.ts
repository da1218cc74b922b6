import { brasiliaDate } from '../../domain/recurrence';
import { FINAL_STATES, type CheckoutPage, type PaymentPage, type RecurrencePage } from '../checkout-page';
import { formatDay, formatMoney, formatTimeLeft } from './format';
import { markup, type Html } from './html';
import type { Messages, PageState } from './i18n';
import { layout, type AssetLinks } from './layout';

/** The page of a payment or of a recurrence's authorization, as it stands at `now`. */
export function checkoutPageHtml(page: CheckoutPage, m: Messages, assets: AssetLinks, now: Date): string {
  return page.kind === 'payment' ? paymentHtml(page, m, assets, now) : recurrenceHtml(page, m, assets);
}

/** The states a payment's page can turn to, each with its section. */
const PAYMENT_ENDINGS: readonly PageState[] = ['paid', 'expired', 'cancelled', 'failed', 'refunded'];
const RECURRENCE_ENDINGS: readonly PageState[] = ['authorized', 'rejected', 'expired', 'cancelled'];

function paymentHtml(page: PaymentPage, m: Messages, assets: AssetLinks, now: Date): string {
  const shownCents = page.due ? page.due.amountDueCents : page.amountCents;
  const amount = formatMoney(shownCents, m);
  const pending = page.state === 'pending';
  const details: [string, Html | string][] = [];
  if (page.due) {
    if (page.due.amountDueCents !== page.amountCents) details.push([m.originalAmount, formatMoney(page.amountCents, m)]);
    details.push([m.dueDate, formatDay(page.due.date, m)]);
    if (page.due.lastPayableDay) details.push([m.payableUntil, formatDay(page.due.lastPayableDay, m)]);
  }
  if (page.payerName) details.push([m.payer, page.payerName]);
  // An immediate charge counts down to its expiry; a due-date charge is payable until a day, shown above.
  const timer = !page.due && page.expiresAt ? page.expiresAt : null;
  const main = markup`
<h1 class="eyebrow">${m.payHeading}</h1>
<p class="amount"><span class="visually-hidden">${page.due ? m.amountDueToday : m.amount}: </span><span data-amount-due>${amount}</span></p>
${page.due ? markup`<p class="amount-note">${m.amountDueToday}</p>` : ''}
${page.description ? markup`<p class="description">${page.description}</p>` : ''}
${details.length ? definitionList(details) : ''}
${statusLine(page.state, m, page.kind)}
<section class="pay" data-when="pending"${pending ? '' : markup` hidden`} aria-labelledby="pay-heading">
<h2 id="pay-heading" class="visually-hidden">${m.scan}</h2>
<p class="lead">${m.scan}</p>
${qrBlock(page.qrCodePng, m.qrAlt(amount), page.copyPaste, m)}
${timer ? timerLine(timer, now, m) : ''}
<ol class="steps">${m.steps.map((step) => markup`<li>${step}</li>`)}</ol>
<noscript><p class="note">${m.noScript} <a href="/pay/${page.token}">${m.refresh}</a></p></noscript>
</section>
${PAYMENT_ENDINGS.map((state) => ending(state, page.state, page.kind, m, state === 'paid' ? page.returnHref : null))}`;
  return layout({
    m,
    title: m.payTitle(amount, page.brand.merchantName),
    brand: page.brand,
    assets,
    script: !FINAL_STATES.has(page.state),
    main,
    mainAttributes: liveAttributes(page, m),
  });
}

function recurrenceHtml(page: RecurrencePage, m: Messages, assets: AssetLinks): string {
  const pending = page.state === 'pending';
  const terms: [string, Html | string][] = [];
  if (page.contractDescription) terms.push([m.contract, page.contractDescription]);
  if (page.amountCents !== null) terms.push([m.recurringAmount, formatMoney(page.amountCents, m)]);
  else if (page.minimumAmountCents !== null) terms.push([m.minimumAmount, formatMoney(page.minimumAmountCents, m)]);
  else terms.push([m.recurringAmount, m.variableAmount]);
  terms.push([m.frequency, m.frequencies[page.frequency]]);
  terms.push([m.startDate, formatDay(page.startDate, m)]);
  terms.push([m.endDate, page.endDate ? formatDay(page.endDate, m) : m.noEndDate]);
  if (page.payerName) terms.push([m.payer, page.payerName]);
  const main = markup`
<h1 class="eyebrow">${m.authorizeHeading}</h1>
${definitionList(terms)}
${page.firstPaymentCents !== null ? markup`<p class="note">${m.firstPayment(formatMoney(page.firstPaymentCents, m))}</p>` : ''}
${statusLine(page.state, m, page.kind)}
<section class="pay" data-when="pending"${pending ? '' : markup` hidden`} aria-labelledby="pay-heading">
<h2 id="pay-heading" class="visually-hidden">${m.authorizeHeading}</h2>
${
  page.authorization
    ? markup`<p class="lead">${m.scan}</p>
${qrBlock(page.authorization.qrCodePng, m.authorizationQrAlt, page.authorization.copyPaste, m)}
<ol class="steps">${m.authorizeSteps.map((step) => markup`<li>${step}</li>`)}</ol>`
    : markup`<p class="lead">${m.requestJourney}</p>`
}
<noscript><p class="note">${m.noScript} <a href="/pay/${page.token}">${m.refresh}</a></p></noscript>
</section>
${RECURRENCE_ENDINGS.map((state) => ending(state, page.state, page.kind, m, null))}`;
  return layout({
    m,
    title: m.authorizeTitle(page.brand.merchantName),
    brand: page.brand,
    assets,
    script: !FINAL_STATES.has(page.state),
    main,
    mainAttributes: liveAttributes(page, m),
  });
}

/** What the script reads: where to follow the page, and the words it shows as the state changes. */
function liveAttributes(page: CheckoutPage, m: Messages): Html {
  return markup` data-live="/pay/${page.token}" data-state="${page.state}" data-kind="${page.kind}" data-locale="${m.locale}"`;
}

/** What the page calls a state, and says of it: a recurrence speaks of authorizing where a payment speaks of paying. */
function stateText(state: PageState, kind: CheckoutPage['kind'], m: Messages): { title: string; detail: string } {
  const recurrence = kind === 'recurrence';
  return {
    title: (recurrence ? m.authorizationStates[state] : undefined) ?? m.states[state],
    detail: (recurrence ? m.authorizationDetails[state] : undefined) ?? m.stateDetails[state],
  };
}

/** The line a screen reader is told of each change on (a polite live region), with its words for every state. */
function statusLine(state: PageState, m: Messages, kind: CheckoutPage['kind']): Html {
  const states: readonly PageState[] = ['pending', ...(kind === 'payment' ? PAYMENT_ENDINGS : RECURRENCE_ENDINGS)];
  const texts = states.map((s) => markup` data-text-${s}="${stateText(s, kind, m).title}"`);
  return markup`<p id="status" class="status" data-status="${state}" role="status" aria-live="polite" aria-atomic="true"${texts}>${stateText(state, kind, m).title}</p>`;
}

function qrBlock(png: string, alt: string, copyPaste: string, m: Messages): Html {
  const size = pngSize(png);
  return markup`<div class="qr-wrap"><img class="qr" src="${png}" alt="${alt}"${size ? markup` width="${size.width}" height="${size.height}"` : ''}></div>
<div class="copy">
<label for="pix-code">${m.copyLabel}</label>
<textarea id="pix-code" class="code" readonly rows="5" spellcheck="false" autocomplete="off">${copyPaste}</textarea>
<button type="button" class="button" id="copy-code" data-copied="${m.copied}" data-failed="${m.copyFailed}">${m.copyButton}</button>
<p id="copy-status" class="copy-status" role="status" aria-live="polite"></p>
</div>`;
}

function timerLine(expiresAt: Date, now: Date, m: Messages): Html {
  const left = expiresAt.getTime() - now.getTime();
  return markup`<p class="timer" data-expires-at="${expiresAt.toISOString()}" data-server-now="${now.getTime()}" data-time-up="${m.timeUp}">${m.timeLeft}: <span id="time-left" role="timer">${formatTimeLeft(left)}</span></p>`;
}

/** A final state's section: what it means for the payer (the status line above names it), and the way back to the shop once paid. */
function ending(state: PageState, current: PageState, kind: CheckoutPage['kind'], m: Messages, returnHref: string | null): Html {
  const { detail } = stateText(state, kind, m);
  return markup`<section class="ending ending-${state}" data-when="${state}"${state === current ? '' : markup` hidden`}>
<p class="ending-title">${detail}</p>
${returnHref ? markup`<p><a class="button" href="${returnHref}">${m.backToShop}</a></p>` : ''}
</section>`;
}

function definitionList(rows: [string, Html | string][]): Html {
  return markup`<dl class="details">${rows.map(([term, value]) => markup`<div><dt>${term}</dt><dd>${value}</dd></div>`)}</dl>`;
}

/** The pixel size a PNG data URL's header gives, so the page keeps the image's room before it is drawn. */
function pngSize(dataUrl: string): { width: number; height: number } | null {
  const prefix = 'data:image/png;base64,';
  if (!dataUrl.startsWith(prefix)) return null;
  const head = Buffer.from(dataUrl.slice(prefix.length, prefix.length + 32), 'base64');
  if (head.length < 24 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** The last day a due-date charge may be paid, from its expiry (the end of that day in Brasília). */
export function lastPayableDay(expiresAt: Date | null): string | null {
  return expiresAt ? brasiliaDate(new Date(expiresAt.getTime() - 1)) : null;
}

/** A page that only says something: not found, wait, unavailable, an error. */
export function messagePageHtml(m: Messages, assets: AssetLinks, title: string, text: string): string {
  return layout({ m, title, brand: null, assets, script: false, main: markup`<h1>${title}</h1>\n<p>${text}</p>` });
}
