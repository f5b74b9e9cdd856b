// Path aliases are written once in tsconfig.json and derived here, so unit and e2e runs cannot drift.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

/**
 * Heavy suites run once per CI run: .ci/run sets HEAVY_SUITES=skip for its second Node version. They test the storage,
 * the counting or the browser, not the Node version: a service killed again and again under traffic, processes that
 * crash or rebalance mid-batch, a consumer paused against stalled storage, a topic recreated, upgrades over old data,
 * migrations run at once, the generated data sets, the property tests against a raw computation and the fuzzing of
 * every parameter, and the dashboard in Chromium.
 */
const HEAVY_SUITES = [
  '<rootDir>/test/kill-.*\\.e2e\\.spec\\.ts$',
  '<rootDir>/test/.*kafka-crash\\.e2e\\.spec\\.ts$',
  '<rootDir>/test/kafka-(paused-member|rebalance|duplicates-repair|recreated-topic)\\.e2e\\.spec\\.ts$',
  '<rootDir>/test/upgrade.*\\.e2e\\.spec\\.ts$',
  '<rootDir>/test/migrations-concurrent\\.spec\\.ts$',
  '<rootDir>/test/scale-data\\.e2e\\.spec\\.ts$',
  '<rootDir>/test/fuzz\\.e2e\\.spec\\.ts$',
  '<rootDir>/test/.*\\.property\\.spec\\.ts$',
  '<rootDir>/test/.*dashboard.*\\.e2e\\.spec\\.ts$',
];

module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '.*\\.spec\\.ts$',
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(process.env.HEAVY_SUITES === 'skip' ? HEAVY_SUITES : []),
    // Suites of a real ClickHouse server (`npm run test:server`) and of the loopback cluster (TEST_CLUSTER=1) only.
    ...(process.env.TEST_STORAGE === 'server' ? [] : ['\\.server\\.spec\\.ts$']),
    ...(process.env.TEST_CLUSTER === '1' ? [] : ['\\.cluster\\.spec\\.ts$']),
  ],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  // Limits end a hung test or hook; none is a timing assertion. 60 s, because CI's 2 cores run two suites side by side
  // and a start with every migration, a broker and a consumer group took over 30 s there.
  testTimeout: 60000,
  // TEST_STORAGE=server: one real ClickHouse server for the run (test/support/storage-global.ts).
  globalSetup: '<rootDir>/test/support/storage-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/storage-global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/drop-earlier-databases.ts'],
  maxWorkers: 2,
};
