/**
 * DOT to SVG with Graphviz compiled to WebAssembly (@viz-js/viz): no
 * Graphviz install, no network, and the same bytes on every machine for a
 * given version, so committed SVGs can be compared with fresh ones.
 */
import { instance, type Viz } from '@viz-js/viz';

let viz: Promise<Viz> | undefined;

/** Graphviz's warnings are errors here: a diagram that draws with warnings draws something other than was meant. */
export async function renderSvg(dot: string): Promise<string> {
  viz ??= instance();
  const result = (await viz).render(dot, { format: 'svg' });
  const problems = result.errors.map((error) => `${error.level ?? 'error'}: ${error.message.trim()}`);
  if (result.status !== 'success' || problems.length > 0) {
    throw new Error(`Graphviz could not draw the diagram: ${problems.join('; ') || 'no reason given'}`);
  }
  return result.output;
}
