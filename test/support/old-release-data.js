// Test-only: creates the database of DATA_DIR as the release of migrations 0001-0011 left it
// (test/fixtures/release-0011.sql), with OLD_EVENTS search events of customer demo that release stored (one insert,
// spread over 5 phrases and the last 3 days, a third without results). Run with node, after `npm run build`.
const path = require('node:path');
const dist = path.resolve(__dirname, '../../dist/libs');
const { loadConfig } = require(path.join(dist, 'config/src'));
const { ClickHouseService } = require(path.join(dist, 'clickhouse/src/clickhouse.service.js'));
const fs = require('node:fs');
const FIXTURE = path.resolve(__dirname, '../fixtures/release-0011.sql');

async function main() {
  const ch = new ClickHouseService(loadConfig({ DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: 'silent' }));
  try {
    // As test/support/release-0011.ts loads it (that module is not built: jest compiles it).
    await ch.command(`CREATE DATABASE IF NOT EXISTS \`${ch.database}\``);
    for (const statement of fs.readFileSync(FIXTURE, 'utf8').trim().split(';\n\n')) {
      await ch.command(statement.replaceAll('{database}.', `${ch.database}.`));
    }
    await ch.command(
      `INSERT INTO ${ch.table('search_events')} (event_id, customer, instance, ts, phrase, raw_phrase, language, hits, bot,
         session_hash, source, topic, partition, offset, received_at)
       SETTINGS insert_deduplication_token = 'old-release'
       SELECT generateUUIDv4(number), 'demo', 'live', now64(3) - toIntervalSecond(number * 127 % 259200),
         concat('old term ', toString(number % 5)), concat('Old term ', toString(number % 5)), 'de', if(number % 3 = 0, 0, 4),
         false, '', 'http', '', 0, 0, now64(3) - toIntervalSecond(number * 127 % 259200)
       FROM numbers({n:UInt32})`,
      { n: Number(process.env.OLD_EVENTS) },
    );
  } finally {
    await ch.onApplicationShutdown();
  }
}
main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  },
);
