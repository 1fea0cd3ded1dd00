import { installFc } from './global';

/**
 * The browser signal widget (`fc`), bundled by src/api/widget-bundle.ts. The service wraps the
 * bundle so that __FC_API_BASE__ names the API when it is not where the script came from.
 */
declare const __FC_API_BASE__: string | null | undefined;

function apiBase(doc: Document): string | null {
  if (typeof __FC_API_BASE__ === 'string') return __FC_API_BASE__;
  const current = doc.currentScript;
  const src =
    current instanceof HTMLScriptElement && current.src
      ? current.src
      : Array.from(doc.scripts).find((script) => /\/widget\/fc(\.[0-9a-f]+)?\.js/.test(script.src))?.src;
  return src ? new URL(src).origin : null;
}

installFc(window, apiBase(document));
