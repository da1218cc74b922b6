import { useState } from 'react';
import { api, ApiError } from '../api';
import type { Session } from '../types';
import { Button, Field, Notice, useSubmit } from '../ui';

export function Login({ reason, onSignedIn }: { reason?: string; onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, failure, errors, onSubmit } = useSubmit({
    check: () => {
      const problems: { email?: string; password?: string } = {};
      if (!email.trim()) problems.email = 'Enter your email address.';
      else if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) problems.email = 'This does not look like an email address.';
      if (!password) problems.password = 'Enter your password.';
      return problems;
    },
    send: async () => {
      try {
        onSignedIn(await api<Session>('POST', '/session', { email: email.trim(), password }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) setPassword('');
        throw error;
      }
    },
  });

  return (
    <div className="login-page">
      <form className="login-card" onSubmit={onSubmit} noValidate aria-labelledby="login-title">
        <div className="brand login-brand">
          <span className="brand-mark" aria-hidden="true" />
          Pix Gateway
        </div>
        <h1 id="login-title">Sign in to the dashboard</h1>
        {reason && !failure && <Notice kind="info">{reason}</Notice>}
        <Notice>{failure}</Notice>
        <Field label="Email" htmlFor="login-email" error={errors.email}>
          <input id="login-email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={!!errors.email} autoFocus />
        </Field>
        <Field label="Password" htmlFor="login-password" error={errors.password}>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={!!errors.password}
          />
        </Field>
        <Button kind="primary" type="submit" busy={busy} className="btn btn-primary btn-block">
          Sign in
        </Button>
        <p className="login-help">
          The login is <code>ADMIN_EMAIL</code> / <code>ADMIN_PASSWORD</code>; when they are not set, the gateway prints generated ones on its first start.
        </p>
      </form>
    </div>
  );
}
