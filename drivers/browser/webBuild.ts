/**
 * Builds the web client: services/gateway/web/src → an output folder
 * (app.js bundled by esbuild, index.html, style.css and favicon.svg copied).
 * `npm run build:web` (scripts/build-web.ts) writes services/gateway/web/dist,
 * which the gateway serves at `/`; the browser tests and the screenshots
 * build into a folder of their own. Nothing is fetched from elsewhere at run time.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = join(REPOSITORY, 'services', 'gateway', 'web');
const WEB_SOURCE = join(WEB, 'src');
const WEB_DIST = join(WEB, 'dist');
const COPIED = ['index.html', 'style.css', 'favicon.svg'];

export interface WebBuild {
  /** The files written. */
  readonly files: readonly string[];
  /** The source files bundled into app.js, relative to the repository. */
  readonly bundled: readonly string[];
  /** For each bundled file, the bundled files it imports (code, not types: esbuild drops type-only imports). */
  readonly imports: Readonly<Record<string, readonly string[]>>;
}

/** Builds the client afresh into `outDir` (dist/ by default). */
export async function buildWeb(outDir = WEB_DIST): Promise<WebBuild> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(WEB_SOURCE, 'main.ts')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    legalComments: 'none',
    metafile: true,
    absWorkingDir: REPOSITORY,
    logLevel: 'warning',
  });
  for (const file of COPIED) await copyFile(join(WEB_SOURCE, file), join(outDir, file));
  return {
    files: ['app.js', 'app.js.map', ...COPIED].map((file) => join(outDir, file)),
    bundled: Object.keys(result.metafile.inputs),
    imports: Object.fromEntries(
      Object.entries(result.metafile.inputs).map(([file, input]) => [file, input.imports.map((imported) => imported.path)]),
    ),
  };
}
