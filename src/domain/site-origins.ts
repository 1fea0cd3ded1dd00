import { z } from 'zod';

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** Whether `value` is an origin as browsers send it: https://host[:port]; plain http only for localhost. */
export function isSiteOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    const local = LOCAL_HOSTS.includes(url.hostname);
    return url.origin === value && (url.protocol === 'https:' || (url.protocol === 'http:' && local));
  } catch {
    return false;
  }
}

/** A site's allowed origin, compared byte for byte with the widget request's Origin header. */
export const siteOrigin = z
  .string()
  .max(255)
  .refine(
    isSiteOrigin,
    'must be an origin such as https://shop.example.com (http only for localhost), without path or trailing slash',
  );

/**
 * The allowed origins of the site a converted application gets: the origins of the URLs the
 * partner gave (an application accepts page URLs), without duplicates or any that cannot be one.
 */
export function originsOf(urls: readonly string[]): string[] {
  const origins = urls.flatMap((u) => {
    try {
      return [new URL(u).origin];
    } catch {
      return [];
    }
  });
  return [...new Set(origins.filter(isSiteOrigin))];
}
