/**
 * How ActiveMerchant's FlexChargeGateway judges an answer of the service, restated from its
 * source and recorded responses (lib/active_merchant/billing/gateways/flex_charge.rb in
 * activemerchant/active_merchant): a merchant's code sees only this verdict, so our answers must
 * earn the right one. No code of theirs is copied; these are the rules, written down.
 */

export type GatewayAction = 'purchase' | 'capture' | 'refund' | 'void' | 'store' | 'inquire';

/** The `status` words the gateway counts as success (CHALLENGE not when the caller asked async). */
export const SUCCESS_WORDS = ['APPROVED', 'CHALLENGE', 'SUBMITTED', 'SUCCESS', 'PROCESSING', 'CAPTUREREQUIRED'];

/** Top-level keys the gateway leaves out when it prints an error body as the message. */
const NOT_PRINTED = ['TraceId', 'access_token', 'token_expires'];

export interface Verdict {
  success: boolean;
  message: string | undefined;
  authorization: string | undefined;
  errorCode: string | undefined;
}

type Body = Record<string, unknown>;

const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

/** An empty body is `{}` to the gateway; a body that is not JSON is not an answer it can read. */
export function parseAnswer(text: string): Body {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as Body;
  } catch {
    return { errors: text, status: 'Unable to parse JSON response' };
  }
}

function successOf(action: GatewayAction, body: Body, async: boolean): boolean {
  switch (action) {
    case 'store': {
      const pm = (body.transaction as Body | undefined)?.payment_method as Body | undefined;
      return Boolean(str(pm?.token));
    }
    case 'inquire':
      return Boolean(str(body.id)) && SUCCESS_WORDS.includes(String(body.statusName));
    case 'void':
      return Object.keys(body).length === 0;
    default: {
      const words = SUCCESS_WORDS.filter((w) => !(async && w === 'CHALLENGE'));
      return body.success === true && words.includes(String(body.status));
    }
  }
}

/** The message: a failed answer carrying TraceId is printed whole (less a few keys); else a field. */
function messageOf(body: Body, success: boolean): string | undefined {
  if (!success && body.TraceId !== undefined && body.TraceId !== null) {
    return JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => !NOT_PRINTED.includes(k))));
  }
  return str(body.title) ?? str(body.responseMessage) ?? str(body.statusName) ?? str(body.status);
}

/**
 * The verdict on one answer. `request` is the body the gateway sent (its `currency`, when it has
 * one, goes into the authorization; else the gateway's default, USD). An HTTP status outside 2xx
 * is a failure without error code, whose message comes from the body.
 */
export function judge(
  action: GatewayAction,
  http: { status: number; text: string },
  request: Body = {},
  options: { async?: boolean } = {},
): Verdict {
  const body = parseAnswer(http.text);
  if (http.status < 200 || http.status > 299) {
    return { success: false, message: messageOf(body, false), authorization: undefined, errorCode: undefined };
  }
  const success = successOf(action, body, options.async === true);
  let authorization: string | undefined;
  if (action === 'store') {
    authorization = str(((body.transaction as Body | undefined)?.payment_method as Body | undefined)?.token);
  } else if (success) {
    authorization = [str(body.orderId), str(request.currency) ?? 'USD'].filter(Boolean).join('#');
  }
  return {
    success,
    message: messageOf(body, success),
    authorization,
    errorCode: success ? undefined : (str(body.statusName) ?? str(body.status)),
  };
}

/** The token answer: usable when it has `accessToken`; `expires` is Unix epoch milliseconds. */
export function tokenVerdict(http: { status: number; text: string }) {
  const body = parseAnswer(http.text);
  return {
    success: http.status === 200 && Boolean(str(body.accessToken)),
    accessToken: str(body.accessToken),
    expires: typeof body.expires === 'number' ? body.expires : Number(body.expires ?? 0),
  };
}

/**
 * The gateway's transcript scrubber (`scrub`): what it filters out of a merchant's logged
 * transcript. The bearer token in the Authorization header, and the values of these JSON keys
 * (any case); anything else, `id` included, stays in the log as sent.
 */
const SCRUBBED_KEYS = ['AppKey', 'AppSecret', 'accessToken', 'mid', 'siteId', 'environment', 'number', 'cardNumber'];

export function scrubTranscript(transcript: string): string {
  let scrubbed = transcript.replace(/(Authorization: Bearer )[a-zA-Z0-9._-]+/gi, '$1[FILTERED]');
  for (const key of SCRUBBED_KEYS) {
    scrubbed = scrubbed.replace(new RegExp(`("${key}\\\\?"\\s*:\\s*\\\\?")[^"]*`, 'gi'), '$1[FILTERED]');
  }
  return scrubbed.replace(/("verification_?[vV]alue\\?":\\?")\d+/g, '$1[FILTERED]');
}
