import { useEffect, useState } from 'react';
import { api, onUnauthorized, setCsrfToken } from './api';
import { Link, navigate, useLocation } from './router';
import type { Session } from './types';
import { Button, Spinner } from './ui';
import { BatchDetail } from './pages/BatchDetail';
import { Batches } from './pages/Batches';
import { Deliveries } from './pages/Deliveries';
import { Login } from './pages/Login';
import { MerchantDetail } from './pages/MerchantDetail';
import { Merchants } from './pages/Merchants';
import { Overview } from './pages/Overview';
import { PaymentDetail } from './pages/PaymentDetail';
import { PaymentLinkDetail } from './pages/PaymentLinkDetail';
import { PaymentLinks } from './pages/PaymentLinks';
import { Payments } from './pages/Payments';
import { ProviderAccountDetail } from './pages/ProviderAccountDetail';
import { ProviderAccounts } from './pages/ProviderAccounts';
import { RecurrenceDetail } from './pages/RecurrenceDetail';
import { Recurrences } from './pages/Recurrences';

const NAV = [
  { to: '/admin', label: 'Overview', match: (p: string) => p === '/admin' },
  { to: '/admin/merchants', label: 'Merchants', match: (p: string) => p.startsWith('/admin/merchants') },
  { to: '/admin/provider-accounts', label: 'Provider accounts', match: (p: string) => p.startsWith('/admin/provider-accounts') },
  { to: '/admin/payments', label: 'Payments', match: (p: string) => p.startsWith('/admin/payments') },
  { to: '/admin/payment-links', label: 'Payment links', match: (p: string) => p.startsWith('/admin/payment-links') },
  { to: '/admin/payment-batches', label: 'Batches', match: (p: string) => p.startsWith('/admin/payment-batches') },
  { to: '/admin/recurrences', label: 'Recurrences', match: (p: string) => p.startsWith('/admin/recurrences') },
  { to: '/admin/deliveries', label: 'Deliveries', match: (p: string) => p.startsWith('/admin/deliveries') },
];

function route(path: string) {
  const merchant = /^\/admin\/merchants\/([^/]+)$/.exec(path);
  const payment = /^\/admin\/payments\/([^/]+)$/.exec(path);
  const account = /^\/admin\/provider-accounts\/([^/]+)$/.exec(path);
  const recurrence = /^\/admin\/recurrences\/([^/]+)$/.exec(path);
  const batch = /^\/admin\/payment-batches\/([^/]+)$/.exec(path);
  const link = /^\/admin\/payment-links\/([^/]+)$/.exec(path);
  if (path === '/admin') return <Overview />;
  if (path === '/admin/merchants') return <Merchants />;
  if (merchant) return <MerchantDetail id={decodeURIComponent(merchant[1]!)} />;
  if (path === '/admin/provider-accounts') return <ProviderAccounts />;
  if (account) return <ProviderAccountDetail id={decodeURIComponent(account[1]!)} />;
  if (path === '/admin/payments') return <Payments />;
  if (payment) return <PaymentDetail id={decodeURIComponent(payment[1]!)} />;
  if (path === '/admin/payment-links') return <PaymentLinks />;
  if (link) return <PaymentLinkDetail id={decodeURIComponent(link[1]!)} />;
  if (path === '/admin/payment-batches') return <Batches />;
  if (batch) return <BatchDetail id={decodeURIComponent(batch[1]!)} />;
  if (path === '/admin/recurrences') return <Recurrences />;
  if (recurrence) return <RecurrenceDetail id={decodeURIComponent(recurrence[1]!)} />;
  if (path === '/admin/deliveries') return <Deliveries />;
  return (
    <div className="card">
      <h1>Page not found</h1>
      <p>
        There is no dashboard page at <code className="break-anywhere">{path}</code>. <Link to="/admin">Go to the overview</Link>.
      </p>
    </div>
  );
}

export function App() {
  const { path } = useLocation();
  // undefined: still asking the gateway; null: signed out.
  const [session, setSession] = useState<Session | null>();
  const [signedOutReason, setSignedOutReason] = useState<string>();
  const [menuOpen, setMenuOpen] = useState(false);

  const signedIn = (value: Session | null) => {
    setCsrfToken(value?.csrf_token ?? null);
    setSession(value);
  };

  useEffect(() => {
    onUnauthorized(() => {
      signedIn(null);
      setSignedOutReason('Your session has expired. Please sign in again.');
    });
    api<Session>('GET', '/session').then(signedIn, () => signedIn(null));
  }, []);

  useEffect(() => setMenuOpen(false), [path]);

  if (session === undefined) return <Spinner label="Opening the dashboard…" />;
  if (session === null) {
    return (
      <Login
        reason={signedOutReason}
        onSignedIn={(value) => {
          setSignedOutReason(undefined);
          signedIn(value);
          if (path === '/admin/login') navigate('/admin', { replace: true });
        }}
      />
    );
  }
  if (path === '/admin/login') {
    navigate('/admin', { replace: true });
    return null;
  }

  const signOut = async () => {
    try {
      await api('DELETE', '/session');
    } catch {
      // Signed out here all the same: a session the gateway could not end expires on its own (8 h unused, 24 h at most; docs/dashboard.md).
    } finally {
      signedIn(null);
      setSignedOutReason('You have signed out.');
    }
  };

  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/admin" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Pix Gateway
        </Link>
        <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav id="main-nav" className={`nav${menuOpen ? ' nav-open' : ''}`} aria-label="Main">
          {NAV.map((item) => (
            <Link key={item.to} to={item.to} className={item.match(path) ? 'active' : undefined} aria-current={item.match(path) ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
          <div className="nav-user">
            <span className="nav-email" title={session.email}>
              {session.email}
            </span>
            <Button kind="ghost" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </nav>
      </header>
      <main className="content">{route(path)}</main>
    </div>
  );
}
