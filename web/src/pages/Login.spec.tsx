import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { session } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { Login } from './Login';

describe('Login', () => {
  const api = useFakeApi();
  const signIn = async (email: string, password: string) => {
    if (email) await userEvent.type(screen.getByLabelText('Email'), email);
    if (password) await userEvent.type(screen.getByLabelText('Password'), password);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  };

  it('asks for what is missing without asking the gateway', async () => {
    api.on('POST /session', session());
    render(<Login onSignedIn={jest.fn()} />);
    await signIn('', '');
    expect(screen.getByText('Enter your email address.')).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(api.requests('POST /session')).toHaveLength(0);
  });

  it('points out an address that is not one', async () => {
    render(<Login onSignedIn={jest.fn()} />);
    await signIn('admin.example.com', 'secret');
    expect(screen.getByText('This does not look like an email address.')).toBeTruthy();
  });

  it('signs in with the trimmed address and hands over the session', async () => {
    const opened = session({ email: 'admin@example.com' });
    api.on('POST /session', opened);
    const onSignedIn = jest.fn();
    render(<Login onSignedIn={onSignedIn} />);
    await signIn('  admin@example.com ', 'correct horse');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(opened));
    expect(api.requests('POST /session').map((r) => r.body)).toEqual([{ email: 'admin@example.com', password: 'correct horse' }]);
  });

  it("shows the gateway's refusal and clears the password, keeping the address", async () => {
    api.on('POST /session', new Failure(401, { code: 'UNAUTHORIZED', message: 'The email or the password is wrong.' }));
    const onSignedIn = jest.fn();
    render(<Login onSignedIn={onSignedIn} />);
    await signIn('admin@example.com', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('The email or the password is wrong.');
    expect(screen.getByLabelText('Password')).toHaveProperty('value', '');
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'admin@example.com');
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false);
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('says why the operator is signed out, until a failure says more', async () => {
    api.on('POST /session', new Failure(429, { code: 'RATE_LIMITED', message: 'Too many attempts; try again in 60 seconds.' }));
    render(<Login reason="Your session has expired. Please sign in again." onSignedIn={jest.fn()} />);
    expect(screen.getByRole('status').textContent).toBe('Your session has expired. Please sign in again.');
    await signIn('admin@example.com', 'secret');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts; try again in 60 seconds.');
    expect(screen.queryByText('Your session has expired. Please sign in again.')).toBeNull();
  });
});
