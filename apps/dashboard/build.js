// Bundles the dashboard (apps/dashboard/src) into dist/dashboard with esbuild: app-<hash>.js, app-<hash>.css and an
// index.html naming them, so the files can be cached for good and index.html not at all (DashboardController).
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const out = path.resolve(__dirname, '../../dist/dashboard');

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: { app: path.join(__dirname, 'src/main.ts') },
    bundle: true,
    minify: true,
    sourcemap: false,
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    entryNames: '[name]-[hash]',
    outdir: out,
    metafile: true,
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
  const js = files.find((f) => f.endsWith('.js'));
  const css = files.find((f) => f.endsWith('.css'));
  const html = fs
    .readFileSync(path.join(__dirname, 'src/index.html'), 'utf8')
    .replace('{{js}}', `/dashboard/${js}`)
    .replace('{{css}}', `/dashboard/${css}`);
  fs.writeFileSync(path.join(out, 'index.html'), html);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
