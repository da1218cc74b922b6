// jsdom, plus the few browser features the dashboard uses that jsdom does not have: a modal
// <dialog> (showModal, close, and Esc firing `cancel`, which web/src/ui.tsx's Modal listens to) and
// window.scrollTo (web/src/router.tsx calls it on every navigation).
const { TestEnvironment } = require('jest-environment-jsdom');

function installDialog(window) {
  const proto = window.HTMLDialogElement.prototype;
  if (typeof proto.showModal === 'function') return;
  Object.defineProperty(proto, 'open', {
    configurable: true,
    get() {
      return this.hasAttribute('open');
    },
    set(value) {
      this.toggleAttribute('open', Boolean(value));
    },
  });
  proto.show = function show() {
    this.setAttribute('open', '');
  };
  proto.showModal = function showModal() {
    this.setAttribute('open', '');
  };
  proto.close = function close() {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new window.Event('close'));
  };
  // The browser's Esc on a modal dialog: a cancelable `cancel` event, then close unless prevented.
  window.document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const dialog = [...window.document.querySelectorAll('dialog[open]')].pop();
    if (!dialog) return;
    const cancel = new window.Event('cancel', { cancelable: true });
    if (dialog.dispatchEvent(cancel)) dialog.close();
  });
}

class DashboardEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    installDialog(this.global);
    this.global.scrollTo = () => undefined;
  }
}

module.exports = DashboardEnvironment;
