// Test-only fault injection, loaded with `node --require` before a built app: CRASH_AFTER_INSERTS=<n> kills the
// process with SIGKILL right after its n-th insert into search_events returned (stored, not yet committed).
const path = require('node:path');
const { ClickHouseService } = require(path.resolve(__dirname, '../../dist/libs/clickhouse/src/clickhouse.service.js'));

const limit = Number(process.env.CRASH_AFTER_INSERTS);
let inserts = 0;
const insert = ClickHouseService.prototype.insert;
ClickHouseService.prototype.insert = async function (table, rows, ...rest) {
  await insert.call(this, table, rows, ...rest);
  if (table === 'search_events' && rows.length > 0 && ++inserts >= limit) {
    process.kill(process.pid, 'SIGKILL');
  }
};
