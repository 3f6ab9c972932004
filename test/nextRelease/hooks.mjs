// Module hooks (node:module register) that make a process the next release: the rulebooks and the
// schema steps are resolved to this folder's versions, except when those import the released ones.
const SUBSTITUTES = new Map(
  [
    ['../../machines/games/rulebooks.ts', './rulebooks.ts'],
    ['../../services/host/schemaSteps.ts', './schemaSteps.ts'],
  ].map(([released, next]) => [new URL(released, import.meta.url).href, new URL(next, import.meta.url).href]),
);

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const substitute = SUBSTITUTES.get(resolved.url);
  return substitute !== undefined && context.parentURL !== substitute ? { ...resolved, url: substitute } : resolved;
}
