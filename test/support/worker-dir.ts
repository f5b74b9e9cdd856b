import * as path from 'node:path';

/**
 * chdb binds one data directory per process: every jest worker uses its own directory, and every test file its own
 * databases, so files never see each other's rows (test/support/drop-earlier-databases.ts drops those of the
 * worker's earlier files).
 */
export const WORKER_DATA_DIR = path.resolve(__dirname, '../../tmp', `jest-${process.env.JEST_WORKER_ID ?? '0'}`);
