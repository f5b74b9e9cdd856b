const { createClient } = require('@clickhouse/client');
const { createChdbConnection } = require('chdb/connection');
const { randomUUID } = require('crypto');
(async () => {
  const c = createClient({ connection: createChdbConnection({ path: process.argv[2] }) });
  const db = 'search_analytics';
  const [row] = await (await c.query({ query: `SELECT * FROM \`${db}\`.search_events LIMIT 1`, format: 'JSONEachRow' })).json();
  await c.command({ query: `CREATE TABLE IF NOT EXISTS \`${db}\`.se_copy AS \`${db}\`.search_events` });
  async function t(label, fn) { const times = []; for (let i = 0; i < 8; i++) { const s = performance.now(); await fn(); times.push(performance.now() - s); } times.sort((a,b)=>a-b); console.log(label, times[4].toFixed(1)); }
  const rows = (n) => Array.from({ length: n }, () => ({ ...row, event_id: randomUUID() }));
  await t('copy no MVs 300', () => c.insert({ table: `\`${db}\`.se_copy`, values: rows(300), format: 'JSONEachRow', clickhouse_settings: { insert_deduplication_token: randomUUID() } }));
  await t('SELECT 1', () => c.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then(r => r.json()));
  await t('search_events 300', () => c.insert({ table: `\`${db}\`.search_events`, values: rows(300), format: 'JSONEachRow', clickhouse_settings: { insert_deduplication_token: randomUUID() } }));
  for (const s of ['parallel_view_processing']) {
    await t(`search_events 300 ${s}=1`, () => c.insert({ table: `\`${db}\`.search_events`, values: rows(300), format: 'JSONEachRow', clickhouse_settings: { insert_deduplication_token: randomUUID(), [s]: 1 } }));
  }
  process.exit(0);
})();
