import * as path from 'node:path';

/**
 * chdb binds one data directory per process: every jest worker uses its own directory, and every test file its own
 * databases, so files never see each other's rows (test/support/drop-earlier-databases.ts drops those of the
 * worker's earlier files). TEST_DATA_ROOT (default ./tmp) holds them: two jest runs side by side on one checkout
 * need a root each, as their workers share numbers.
 */
export const WORKER_DATA_DIR = path.resolve(
  process.env.TEST_DATA_ROOT ?? path.resolve(__dirname, '../../tmp'),
  `jest-${process.env.JEST_WORKER_ID ?? '0'}`,
);
