// Test-only fault injection, loaded with `node --require` before a built app: CRASH_AFTER_INSERTS=<n> kills the
// process with SIGKILL right after its n-th insert into search_events returned (stored, not yet committed);
// CRASH_AFTER_TABLE names another table to count (e.g. interactions).
const path = require('node:path');
const { ClickHouseService } = require(path.resolve(__dirname, '../../dist/libs/clickhouse/src/clickhouse.service.js'));

const limit = Number(process.env.CRASH_AFTER_INSERTS);
const counted = process.env.CRASH_AFTER_TABLE || 'search_events';
let inserts = 0;
const insert = ClickHouseService.prototype.insert;
ClickHouseService.prototype.insert = async function (table, rows, ...rest) {
  await insert.call(this, table, rows, ...rest);
  if (table === counted && rows.length > 0 && ++inserts >= limit) {
    process.kill(process.pid, 'SIGKILL');
  }
};
