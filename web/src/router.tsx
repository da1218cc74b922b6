import { MouseEvent, ReactNode, useEffect, useState } from 'react';

/**
 * A router of a dozen lines: the dashboard has a handful of pages, and the browser's own history API does
 * all the work. Paths are under /admin; the gateway answers every /admin/* with this app.
 */
const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.scrollTo(0, 0);
  listeners.forEach((listener) => listener());
}

export function useLocation(): { path: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { path: location.pathname.replace(/\/+$/, '') || '/', search: new URLSearchParams(location.search) };
}

export function Link({ to, children, className, ...rest }: { to: string; children: ReactNode; className?: string } & Record<string, unknown>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} className={className} {...rest}>
      {children}
    </a>
  );
}
