/**
 * The Grafana dashboard (infra/grafana/suitors-dashboard.json) charts only
 * metrics the processes export: every metric its queries name is registered
 * by the gateway's metrics or a worker's, so a renamed metric fails here,
 * not on an operator's empty panel.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../services/gateway/metrics.js';
import { createWorkerMetrics } from '../services/worker/workerMetrics.js';

const DASHBOARD = new URL('../infra/grafana/suitors-dashboard.json', import.meta.url);

interface Dashboard {
  readonly panels: readonly { readonly title: string; readonly targets: readonly { readonly expr: string }[] }[];
}

/** The metric names a PromQL query reads: a histogram's series named by the histogram. */
function metricsIn(expr: string): string[] {
  const names = expr.match(/\b(suitors|nodejs|process)_[a-z_]+\b/g) ?? [];
  return names.map((name) => name.replace(/_(bucket|count|sum)$/, ''));
}

describe('the Grafana dashboard', () => {
  it('queries only metrics a gateway or a table worker exports', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
    const gateway = createMetrics({
      residentTables: () => 0,
      tablesInPlay: async () => 0,
      quarantinedTables: () => 0,
      storage: { full: false, refused: 0 },
      processMetrics: true,
    }).registry;
    const worker = createWorkerMetrics().registry;
    const queried = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricsIn(target.expr)));
    expect(queried.length).toBeGreaterThan(10);
    const unknown = queried.filter((name) => gateway.getSingleMetric(name) === undefined && worker.getSingleMetric(name) === undefined);
    expect(unknown).toEqual([]);
  });
});
