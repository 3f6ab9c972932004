/**
 * The service's Prometheus metrics (GET /metrics) as the runs read them:
 * fetched, parsed into samples, summed by labels, and a histogram's
 * percentile between two scrapes.
 */
import http from 'node:http';

/** A GET on the gateway's own address (no rate limit applies outside /api); the body as text. */
export function getText(url: string, timeoutMs = 30_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url}: no answer within ${timeoutMs / 1000} s`)));
    request.on('error', reject);
  });
}

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of a metric whose labels include `where`; null when there is none. */
export function metricValue(samples: readonly Sample[], name: string, where: Record<string, string> = {}): number | null {
  const matching = samples.filter(
    (sample) => sample.name === name && Object.entries(where).every(([key, value]) => sample.labels[key] === value),
  );
  return matching.length === 0 ? null : matching.reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * A percentile of a Prometheus histogram between two scrapes, as the upper
 * bound of the bucket it falls in ("≤ 25 ms"); null without observations.
 */
export function histogramPercentile(
  before: readonly Sample[],
  after: readonly Sample[],
  name: string,
  where: Record<string, string>,
  p: number,
): string | null {
  const buckets = (samples: readonly Sample[]) =>
    new Map(
      samples
        .filter((sample) => sample.name === `${name}_bucket` && Object.entries(where).every(([key, value]) => sample.labels[key] === value))
        .map((sample) => [sample.labels.le, sample.value] as const),
    );
  const then = buckets(before);
  const now = [...buckets(after)].map(([le, count]) => ({ le, count: count - (then.get(le) ?? 0) }));
  now.sort((a, b) => Number(a.le === '+Inf' ? Infinity : a.le) - Number(b.le === '+Inf' ? Infinity : b.le));
  const total = now.at(-1)?.count ?? 0;
  if (total <= 0) return null;
  const wanted = (p / 100) * total;
  const bucket = now.find(({ count }) => count >= wanted)!;
  return bucket.le === '+Inf' ? `> ${Number(now.at(-2)?.le ?? 0) * 1000} ms` : `≤ ${Number(bucket.le) * 1000} ms`;
}
