export type RouteTrigger = 'pushState' | 'replaceState' | 'popstate';

/**
 * Calls `onChange` when a single-page app changes route: history.pushState and replaceState
 * (wrapped, the page's own calls still go through first) when they change the address, and the
 * popstate event (back, forward, hash changes).
 */
export function watchRoutes(win: Window, onChange: (trigger: RouteTrigger) => void): void {
  const history = win.history;
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      const before = win.location.href;
      const result = original.apply(this, args);
      if (win.location.href !== before) onChange(method);
      return result;
    };
  }
  win.addEventListener('popstate', () => onChange('popstate'));
}

/**
 * The route as sent: the path only (no query or fragment, which may carry tokens), with segments
 * that look like identifiers (digits, or an @, also percent-encoded as %40) replaced by ":id", at
 * most 256 characters.
 */
export function routePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (/\d{3,}|@|%40|^[0-9a-f-]{16,}$/i.test(segment) ? ':id' : segment))
    .join('/')
    .slice(0, 256);
}
