/**
 * The players' HTTP calls (create a table, take a seat, read a view): JSON
 * over loopback from the table's own client address, paced under the
 * gateway's per-address limit; a 429 is counted and tried again after its
 * Retry-After, up to three times.
 */
import http from 'node:http';
import { sleep } from '../polling.js';
import type { PlayerCounters } from './counters.js';
import { HTTP_PACE, Pacer } from './pace.js';
import { Refused, STEP_TIMEOUT_MS } from './steps.js';

type JsonBody = Record<string, unknown>;

interface JsonAnswer {
  status: number;
  body: JsonBody;
  retryAfter: number;
}

export class PacedHttp {
  private readonly pacers = new Map<string, Pacer>();

  constructor(private readonly counters: PlayerCounters) {}

  /** Waits for a turn under `address`'s pace (HTTP_PACE). */
  async paced(address: string): Promise<void> {
    let pacer = this.pacers.get(address);
    if (pacer === undefined) {
      pacer = new Pacer(HTTP_PACE);
      this.pacers.set(address, pacer);
    }
    const wait = pacer.reserve();
    if (wait > 0) await sleep(wait);
  }

  post(port: number, path: string, body: unknown, address: string): Promise<JsonBody> {
    return this.request(port, 'POST', path, address, { body });
  }

  get(port: number, path: string, address: string, token?: string): Promise<JsonBody> {
    return this.request(port, 'GET', path, address, { token });
  }

  /** The body of a 2xx answer; anything else is thrown as a Refused of kind `http <status> <error>`. */
  private async request(
    port: number,
    method: string,
    path: string,
    address: string,
    { body, token }: { body?: unknown; token?: string },
  ): Promise<JsonBody> {
    for (let attempt = 1; ; attempt++) {
      await this.paced(address);
      let answer: JsonAnswer;
      try {
        answer = await requestJson({ port, method, path, localAddress: address, body, token });
      } catch (error) {
        if (error instanceof Refused) throw error;
        const code = (error as NodeJS.ErrnoException).code ?? 'error';
        if (code === 'EMFILE') this.counters.emfile++;
        throw new Refused(`http ${code}`, `${method} ${path}: ${(error as Error).message}`);
      }
      if (answer.status === 429) {
        this.counters.rateLimitRefusals++;
        this.counters.countError('http 429 rateLimited', `${method} ${path}: ${String(answer.body.message)}`);
        if (attempt < 3) {
          await sleep(answer.retryAfter * 1000);
          continue;
        }
      }
      if (answer.status >= 200 && answer.status < 300) return answer.body;
      throw new Refused(`http ${answer.status} ${String(answer.body.error)}`, `${method} ${path}: ${String(answer.body.message)}`);
    }
  }
}

function requestJson({
  port,
  method,
  path,
  localAddress,
  body,
  token,
}: {
  port: number;
  method: string;
  path: string;
  localAddress: string;
  body?: unknown;
  token?: string;
}): Promise<JsonAnswer> {
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string | number> = {};
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, localAddress, agent: false, timeout: STEP_TIMEOUT_MS, headers },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('error', reject);
        response.on('end', () => {
          let parsed: JsonBody;
          try {
            parsed = JSON.parse(answer) as JsonBody;
          } catch {
            parsed = { error: 'notJson', message: answer.slice(0, 200) };
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, retryAfter: Number(response.headers['retry-after'] ?? 1) });
        });
      },
    );
    request.on('timeout', () =>
      request.destroy(new Refused('http timeout', `${method} ${path}: no answer within ${STEP_TIMEOUT_MS / 1000} s`)),
    );
    request.on('error', reject);
    request.end(text);
  });
}
