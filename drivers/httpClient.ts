/** Requests over loopback HTTP, as a client sends them (not Fastify's inject), for the tests. */

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly body: Message;
}

/** A request over loopback HTTP, as a client sends it (not Fastify's inject): a string body goes as it is, anything else as JSON. */
export async function httpRequest(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const { body, headers = {} } = options;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Message;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** A message or body parsed from JSON: any, so a test reads the fields it expects without a cast for each. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read parsed JSON whose shape they assert
export type Message = any;
