// Test-only fault injection, loaded with `node --require` before a built app: the process kills itself with SIGKILL
// right after the first statement or insert whose SQL (or table, for an insert) matches KILL_AFTER_SQL (a regular
// expression) has run, e.g. a migration's backfill before the migration is recorded, or an engagement pass's rows
// before their version is. KILL_MARKER names a file written then, so the restarted process (same environment) runs
// on.
const fs = require('node:fs');
const path = require('node:path');
const { ClickHouseService } = require(path.resolve(__dirname, '../../dist/libs/clickhouse/src/clickhouse.service.js'));

const pattern = new RegExp(process.env.KILL_AFTER_SQL);
const marker = process.env.KILL_MARKER;

function killIf(text) {
  if (pattern.test(text) && !fs.existsSync(marker)) {
    fs.writeFileSync(marker, `${text.slice(0, 200)}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}

const command = ClickHouseService.prototype.command;
ClickHouseService.prototype.command = async function (sql, ...rest) {
  await command.call(this, sql, ...rest);
  killIf(sql);
};
const insert = ClickHouseService.prototype.insert;
ClickHouseService.prototype.insert = async function (table, rows, ...rest) {
  await insert.call(this, table, rows, ...rest);
  killIf(`INSERT INTO ${table}`);
};
