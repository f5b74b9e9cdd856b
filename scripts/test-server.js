// `npm run test:server` (the last step of `npm test`): the server-path suites again, against a real ClickHouse server
// (TEST_STORAGE=server; docs/development.md, "Tests"). The launcher (tools/chdb-server) is built here when it is missing and a C
// compiler is; without one the suites are skipped with a line saying so, unless REQUIRE_SERVER_TESTS=1 (CI), which
// makes that a failure. Arguments are passed to jest (a file pattern, --runInBand, ...).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const LAUNCHER = path.join(ROOT, '.chdb-server', 'chdb-server');

/**
 * The suites that run on both storages: the HTTP intake of events, interactions and documents, the Kafka ingest,
 * the ranking-mix check, the lists, analytics and engagement answers, and the kills of the app (the server lives on).
 */
const SERVER_SUITES = [
  'events-http',
  'events-interactions',
  'intake-retries',
  'intake-single-events',
  'insights',
  'multi-customer',
  'search-terms',
  'search-terms.property',
  'analytics',
  'engagement',
  'engagement.property',
  'engagement-refresh',
  'search-dimensions',
  'search-dimensions.property',
  'ranking-mix',
  'kafka-ingest',
  'kafka-crash',
  'kafka-duplicates',
  'intake-kafka-batches',
  'interactions-kafka',
  'interactions-kafka-crash',
  'insights-kafka',
  'kill-embedded',
  'kill-kafka',
];

/**
 * Not on the loopback cluster (TEST_CLUSTER=1): they hold an insert between its table and its views with a test-only
 * view (test/support/hold-insert.js), which on a cluster would sit on a Distributed table. The kill of the app
 * mid-batch runs there as kafka-crash and interactions-kafka-crash.
 */
const NOT_ON_CLUSTER = new Set(['kill-embedded', 'kill-kafka']);

if (!fs.existsSync(LAUNCHER)) {
  const hasCompiler = spawnSync('sh', ['-c', 'command -v gcc'], { stdio: 'ignore' }).status === 0;
  if (hasCompiler) {
    const built = spawnSync('bash', [path.join(ROOT, 'scripts', 'build-chdb-server.sh')], { stdio: 'inherit' });
    if (built.status !== 0) {
      process.exit(built.status ?? 1);
    }
  } else if (process.env.REQUIRE_SERVER_TESTS === '1') {
    console.error(
      'REQUIRE_SERVER_TESTS=1, but the ClickHouse test server cannot be built: no gcc (scripts/build-chdb-server.sh --install)',
    );
    process.exit(1);
  } else {
    console.log('server-path suites skipped: no gcc to build the ClickHouse test server (scripts/build-chdb-server.sh --install)');
    process.exit(0);
  }
}

// Besides the suites of both storages, those of a server only (*.server.spec.ts) and, with TEST_CLUSTER=1, of the
// loopback cluster (*.cluster.spec.ts).
const suites = [
  ...SERVER_SUITES.filter((name) => process.env.TEST_CLUSTER !== '1' || !NOT_ON_CLUSTER.has(name)).map(
    (name) => `test/${name.replace(/\./g, '\\.')}\\.(e2e\\.)?spec\\.ts$`,
  ),
  'test/.*\\.server\\.spec\\.ts$',
  ...(process.env.TEST_CLUSTER === '1' ? ['test/.*\\.cluster\\.spec\\.ts$'] : []),
];
// The property tests' full runs are on the embedded engine (`jest`, the step before); on a server and on the cluster the
// same SQL goes over HTTP or through Distributed tables, and four runs a layout check that path (PROPERTY_RUNS overrides).
const PROPERTY_RUNS_ON_A_SERVER = '4';
const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), ...process.argv.slice(2), ...suites], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TEST_STORAGE: 'server', PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? PROPERTY_RUNS_ON_A_SERVER },
});
process.exit(jest.status ?? 1);
