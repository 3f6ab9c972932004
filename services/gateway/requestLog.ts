/** Requests as the log has them: socket URLs carry seat tokens, which must never reach a log. */
import { parseWholeNumber } from '../wholeNumber.js';

export function requestForLog(request: { method: string; url: string; ip?: string; id?: string }) {
  return { method: request.method, url: urlForLog(request.url), remoteAddress: request.ip };
}

/** Query keys the API defines whose values, whole numbers, hold nothing secret; every other value is logged as <redacted>. */
const PLAIN_QUERY_KEYS = new Set(['after', 'at', 'seat', 'page', 'limit']);

/**
 * A URL with every query value redacted unless its key, decoded as the
 * router decodes it, is one of PLAIN_QUERY_KEYS and the value a whole number
 * as the API takes it: a token sent under any spelling of "token"
 * (`%74oken`, `tok%65n`), under any other key, or in the place of a number
 * (`after=<token>`) is never written out.
 */
export function urlForLog(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const parts = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const key = equals < 0 ? part : part.slice(0, equals);
      if (PLAIN_QUERY_KEYS.has(decodedQueryKey(key)) && parseWholeNumber(part.slice(equals + 1)) !== null) return part;
      return equals < 0 ? '<redacted>' : `${key}=<redacted>`;
    });
  return `${url.slice(0, start)}?${parts.join('&')}`;
}

function decodedQueryKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}
