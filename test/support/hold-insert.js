// Test-only fault injection, loaded with `node --require` before a built app: the HOLD_INSERT_AT-th insert into
// search_events is held between its raw part and its views, and the process is killed there with SIGKILL, as a
// kill that lands mid-insert leaves it (by luck, otherwise). A test-only view whose SELECT sleeps is created for that
// insert: the engine commits the raw part, then runs the views, and commits their parts after all of them. The
// process kills itself once the raw part is on disk. HOLD_MARKER names a file written then, so the restarted process
// (same environment) holds nothing again; every start drops the view.
const fs = require('node:fs');
const path = require('node:path');
const dist = path.resolve(__dirname, '../../dist/libs/clickhouse/src');
const { ClickHouseService } = require(path.join(dist, 'clickhouse.service.js'));
const { MigratorService } = require(path.join(dist, 'migrator.service.js'));

const at = Number(process.env.HOLD_INSERT_AT);
const marker = process.env.HOLD_MARKER;
const VIEW = 'hold_insert_mv';

const migrate = MigratorService.prototype.migrate;
MigratorService.prototype.migrate = async function (...args) {
  const applied = await migrate.apply(this, args);
  await this.ch.command(`DROP VIEW IF EXISTS ${this.ch.table(VIEW)}`);
  return applied;
};

/**
 * The parts of search_events on disk that an insert writes: level 0 (`<partition>_<min>_<max>_0`). A merge writes a
 * part of a higher level, which must not pass for the held insert's raw part.
 */
function insertedParts(dataPath) {
  return fs.existsSync(dataPath) ? fs.readdirSync(dataPath).filter((name) => /^\d{6}_\d+_\d+_0$/.test(name)) : [];
}

let inserts = 0;
const insert = ClickHouseService.prototype.insert;
ClickHouseService.prototype.insert = async function (table, rows, ...rest) {
  if (table !== 'search_events' || rows.length === 0 || ++inserts !== at || fs.existsSync(marker)) {
    return insert.call(this, table, rows, ...rest);
  }
  await this.command(`CREATE TABLE IF NOT EXISTS ${this.table('hold_insert_sink')} (n UInt64) ENGINE = Null`);
  await this.command(
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${this.table(VIEW)} TO ${this.table('hold_insert_sink')} AS
     SELECT count() + sleep(3) * 0 AS n FROM ${this.table('search_events')}`,
  );
  const [{ dir }] = await this.query(
    `SELECT data_paths[1] AS dir FROM system.tables WHERE database = {db:String} AND name = 'search_events'`,
    { db: this.database },
  );
  const before = new Set(insertedParts(dir));
  const held = insert.call(this, table, rows, ...rest);
  for (;;) {
    if (insertedParts(dir).some((name) => !before.has(name))) {
      fs.writeFileSync(marker, 'held\n');
      process.kill(process.pid, 'SIGKILL');
    }
    await Promise.race([held, new Promise((r) => setTimeout(r, 10))]);
  }
};
