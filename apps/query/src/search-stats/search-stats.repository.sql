-- SearchStatsRepository: GET /search-stats
-- Every statement the repository sends for each case, at now = 2026-04-02T10:20:00.000Z,
-- customer acme, instance shop. Only whitespace is changed from what is sent; the `;` is added here.
-- Written by apps/query/src/search-stats/search-stats.repository.sql.spec.ts; do not edit by hand.
-- After an intended change: UPDATE_SQL=1 npx jest apps/query/src/search-stats/search-stats.repository.sql.spec.ts

-- ====================================================================================================================

-- default window (since=1d), UTC (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_h0_from = 1775037600 (2026-04-01T10:00:00Z)
--   w1_h0_to = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- default window (since=1d), UTC (2/4): SearchStatsRepository.hours
-- GET /search-stats
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- default window (since=1d), UTC (3/4): SearchStatsRepository.languages
-- GET /search-stats
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- default window (since=1d), UTC (4/4): SearchStatsRepository.users
-- GET /search-stats
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1775037600,1775041200,1775044800,1775048400,1775052000,1775055600,1775059200,1775062800,1775066400,1775070000,1775073600,1775077200,1775080800,1775084400,1775088000,1775091600,1775095200,1775098800,1775102400,1775106000,1775109600,1775113200,1775116800,1775120400,1775124000]
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- since=1d, Europe/Berlin (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=1d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_h0_from = 1775037600 (2026-04-01T10:00:00Z)
--   w1_h0_to = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- since=1d, Europe/Berlin (2/4): SearchStatsRepository.hours
-- GET /search-stats?since=1d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- since=1d, Europe/Berlin (3/4): SearchStatsRepository.languages
-- GET /search-stats?since=1d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- since=1d, Europe/Berlin (4/4): SearchStatsRepository.users
-- GET /search-stats?since=1d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1775037600,1775041200,1775044800,1775048400,1775052000,1775055600,1775059200,1775062800,1775066400,1775070000,1775073600,1775077200,1775080800,1775084400,1775088000,1775091600,1775095200,1775098800,1775102400,1775106000,1775109600,1775113200,1775116800,1775120400,1775124000]
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- since=7d, UTC, interval=hour (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=7d&interval=hour
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-04-02"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- since=7d, UTC, interval=hour (2/4): SearchStatsRepository.hours
-- GET /search-stats?since=7d&interval=hour
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- since=7d, UTC, interval=hour (3/4): SearchStatsRepository.languages
-- GET /search-stats?since=7d&interval=hour
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- since=7d, UTC, interval=hour (4/4): SearchStatsRepository.users
-- GET /search-stats?since=7d&interval=hour
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1774519200,1774522800,1774526400,1774530000,1774533600,1774537200,1774540800,1774544400,1774548000,1774551600,1774555200,1774558800,1774562400,1774566000,1774569600,1774573200,1774576800,1774580400,1774584000,1774587600,1774591200,1774594800,1774598400,1774602000,1774605600,1774609200,1774612800,1774616400,1774620000,1774623600,1774627200,1774630800,1774634400,1774638000,1774641600,1774645200,1774648800,1774652400,1774656000,1774659600,1774663200,1774666800,1774670400,1774674000,1774677600,1774681200,1774684800,1774688400,1774692000,1774695600,1774699200,1774702800,1774706400,1774710000,1774713600,1774717200,1774720800,1774724400,1774728000,1774731600,1774735200,1774738800,1774742400,1774746000,1774749600,1774753200,1774756800,1774760400,1774764000,1774767600,1774771200,1774774800,1774778400,1774782000,1774785600,1774789200,1774792800,1774796400,1774800000,1774803600,1774807200,1774810800,1774814400,1774818000,1774821600,1774825200,1774828800,1774832400,1774836000,1774839600,1774843200,1774846800,1774850400,1774854000,1774857600,1774861200,1774864800,1774868400,1774872000,1774875600,1774879200,1774882800,1774886400,1774890000,1774893600,1774897200,1774900800,1774904400,1774908000,1774911600,1774915200,1774918800,1774922400,1774926000,1774929600,1774933200,1774936800,1774940400,1774944000,1774947600,1774951200,1774954800,1774958400,1774962000,1774965600,1774969200,1774972800,1774976400,1774980000,1774983600,1774987200,1774990800,1774994400,1774998000,1775001600,1775005200,1775008800,1775012400,1775016000,1775019600,1775023200,1775026800,1775030400,1775034000,1775037600,1775041200,1775044800,1775048400,1775052000,1775055600,1775059200,1775062800,1775066400,1775070000,1775073600,1775077200,1775080800,1775084400,1775088000,1775091600,1775095200,1775098800,1775102400,1775106000,1775109600,1775113200,1775116800,1775120400,1775124000]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- since=30d, Europe/Berlin (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=30d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-04"
--   w1_d0_to = "2026-03-09"
--   w1_d1_from = "2026-03-30"
--   w1_d1_to = "2026-04-02"
--   w1_h0_from = 1772532000 (2026-03-03T10:00:00Z)
--   w1_h0_to = 1772582400 (2026-03-04T00:00:00Z)
--   w1_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_to = 1775127600 (2026-04-02T11:00:00Z)
--   w1_week0_from = "2026-03-09"
--   w1_week0_to = "2026-03-30"
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date})
          OR (day >= {w1_d1_from:Date} AND day < {w1_d1_to:Date})
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- since=30d, Europe/Berlin (2/4): SearchStatsRepository.hours
-- GET /search-stats?since=30d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- since=30d, Europe/Berlin (3/4): SearchStatsRepository.languages
-- GET /search-stats?since=30d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- since=30d, Europe/Berlin (4/4): SearchStatsRepository.users
-- GET /search-stats?since=30d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1772532000 (2026-03-03T10:00:00Z)
--   d_r0_from = 1772532000 (2026-03-03T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1772492400,1772578800,1772665200,1772751600,1772838000,1772924400,1773010800,1773097200,1773183600,1773270000,1773356400,1773442800,1773529200,1773615600,1773702000,1773788400,1773874800,1773961200,1774047600,1774134000,1774220400,1774306800,1774393200,1774479600,1774566000,1774652400,1774738800,1774821600,1774908000,1774994400,1775080800]
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- from/to whole days, UTC (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-20"
--   w1_d0_to = "2026-03-27"
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- from/to whole days, UTC (2/4): SearchStatsRepository.hours
-- GET /search-stats?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1773964800 (2026-03-20T00:00:00Z)
--   w_to = 1774569600 (2026-03-27T00:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- from/to whole days, UTC (3/4): SearchStatsRepository.languages
-- GET /search-stats?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1773964800 (2026-03-20T00:00:00Z)
--   w_to = 1774569600 (2026-03-27T00:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- from/to whole days, UTC (4/4): SearchStatsRepository.users
-- GET /search-stats?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1773964800 (2026-03-20T00:00:00Z)
--   d_r0_from = 1773964800 (2026-03-20T00:00:00Z)
--   d_r0_to = 1774569600 (2026-03-27T00:00:00Z)
--   d_to = 1774569600 (2026-03-27T00:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1773964800,1774051200,1774137600,1774224000,1774310400,1774396800,1774483200]
--   w_from = 1773964800 (2026-03-20T00:00:00Z)
--   w_to = 1774569600 (2026-03-27T00:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- from/to whole days, Europe/Berlin (across the switch to summer time) (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-26"
--   w1_d0_to = "2026-04-01"
--   w1_h0_from = 1774479600 (2026-03-25T23:00:00Z)
--   w1_h0_to = 1774483200 (2026-03-26T00:00:00Z)
--   w1_h1_from = 1775001600 (2026-04-01T00:00:00Z)
--   w1_h1_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- from/to whole days, Europe/Berlin (across the switch to summer time) (2/4): SearchStatsRepository.hours
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- from/to whole days, Europe/Berlin (across the switch to summer time) (3/4): SearchStatsRepository.languages
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- from/to whole days, Europe/Berlin (across the switch to summer time) (4/4): SearchStatsRepository.users
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1774479600 (2026-03-25T23:00:00Z)
--   d_r0_from = 1774479600 (2026-03-25T23:00:00Z)
--   d_r0_to = 1775080800 (2026-04-01T22:00:00Z)
--   d_to = 1775080800 (2026-04-01T22:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1774479600,1774566000,1774652400,1774738800,1774821600,1774908000,1774994400]
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- language=de (the languages list ignores it) (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-02"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- language=de (the languages list ignores it) (2/4): SearchStatsRepository.hours
-- GET /search-stats?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- language=de (the languages list ignores it) (3/4): SearchStatsRepository.languages
-- GET /search-stats?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- language=de (the languages list ignores it) (4/4): SearchStatsRepository.users
-- GET /search-stats?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   starts = [1774483200,1774569600,1774656000,1774742400,1774828800,1774915200,1775001600,1775088000]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- with bots (1/4): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=7d&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-04-02"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- with bots (2/4): SearchStatsRepository.hours
-- GET /search-stats?since=7d&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- with bots (3/4): SearchStatsRepository.languages
-- GET /search-stats?since=7d&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- with bots (4/4): SearchStatsRepository.users
-- GET /search-stats?since=7d&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1774483200,1774569600,1774656000,1774742400,1774828800,1774915200,1775001600,1775088000]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- compare=previous, since=7d (1/5): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=7d&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w0_d0_from = "2026-03-20"
--   w0_d0_to = "2026-03-26"
--   w0_h0_from = 1773910800 (2026-03-19T09:00:00Z)
--   w0_h0_to = 1773964800 (2026-03-20T00:00:00Z)
--   w0_h1_from = 1774483200 (2026-03-26T00:00:00Z)
--   w0_h1_to = 1774519200 (2026-03-26T10:00:00Z)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-04-02"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w0_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w0_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w0_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w0_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND ((day >= {w0_d0_from:Date} AND day < {w0_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS previous_n;

-- compare=previous, since=7d (2/5): SearchStatsRepository.hours
-- GET /search-stats?since=7d&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1773910800 (2026-03-19T09:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- compare=previous, since=7d (3/5): SearchStatsRepository.languages
-- GET /search-stats?since=7d&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- compare=previous, since=7d (4/5): SearchStatsRepository.users
-- GET /search-stats?since=7d&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1774483200,1774569600,1774656000,1774742400,1774828800,1774915200,1775001600,1775088000]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- compare=previous, since=7d (5/5): SearchStatsRepository.users
-- GET /search-stats?since=7d&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_to = 1774519200 (2026-03-26T10:00:00Z)
--   d_to = 1774519200 (2026-03-26T10:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = []
--   w_from = 1773910800 (2026-03-19T09:00:00Z)
--   w_to = 1774519200 (2026-03-26T10:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- compare=previous, from/to, Europe/Berlin, language=de, with bots (1/5): SearchStatsRepository.distinctTerms
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin&compare=previous&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w0l_d0_from = "2026-03-19"
--   w0l_d0_to = "2026-03-25"
--   w0l_h0_from = 1774396800 (2026-03-25T00:00:00Z)
--   w0l_h0_to = 1774479600 (2026-03-25T23:00:00Z)
--   w1l_d0_from = "2026-03-26"
--   w1l_d0_to = "2026-04-01"
--   w1l_h0_from = 1774479600 (2026-03-25T23:00:00Z)
--   w1l_h0_to = 1774483200 (2026-03-26T00:00:00Z)
--   w1l_h1_from = 1775001600 (2026-04-01T00:00:00Z)
--   w1l_h1_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND ((hour >= toDateTime({w0l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w0l_h0_to:UInt32}, 'UTC')))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND ((day >= {w0l_d0_from:Date} AND day < {w0l_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS previous_n;

-- compare=previous, from/to, Europe/Berlin, language=de, with bots (2/5): SearchStatsRepository.hours
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin&compare=previous&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1773878400 (2026-03-19T00:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- compare=previous, from/to, Europe/Berlin, language=de, with bots (3/5): SearchStatsRepository.languages
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin&compare=previous&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- compare=previous, from/to, Europe/Berlin, language=de, with bots (4/5): SearchStatsRepository.users
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin&compare=previous&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   d_from = 1774479600 (2026-03-25T23:00:00Z)
--   d_r0_from = 1774479600 (2026-03-25T23:00:00Z)
--   d_r0_to = 1775080800 (2026-04-01T22:00:00Z)
--   d_to = 1775080800 (2026-04-01T22:00:00Z)
--   instance = "shop"
--   language = "de"
--   starts = [1774479600,1774566000,1774652400,1774738800,1774821600,1774908000,1774994400]
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- compare=previous, from/to, Europe/Berlin, language=de, with bots (5/5): SearchStatsRepository.users
-- GET /search-stats?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin&compare=previous&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   d_from = 1773878400 (2026-03-19T00:00:00Z)
--   d_r0_from = 1773878400 (2026-03-19T00:00:00Z)
--   d_r0_to = 1774479600 (2026-03-25T23:00:00Z)
--   d_to = 1774479600 (2026-03-25T23:00:00Z)
--   instance = "shop"
--   language = "de"
--   starts = []
--   w_from = 1773878400 (2026-03-19T00:00:00Z)
--   w_to = 1774479600 (2026-03-25T23:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- engagement=true, since=7d, interval=day, Europe/Berlin (1/7): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=7d&interval=day&tz=Europe/Berlin&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-04-02"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, 0 AS previous_n;

-- engagement=true, since=7d, interval=day, Europe/Berlin (2/7): EngagementRepository.unattributed
-- GET /search-stats?since=7d&interval=day&tz=Europe/Berlin&engagement=true
-- params:
--   customer = "acme"
--   i_from = 1774519200 (2026-03-26T10:00:00Z)
--   i_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   no_search = "00000000-0000-0000-0000-000000000000"
SELECT toUnixTimestamp(toStartOfHour(ts)) * 1000 AS hour_ms,
  countIf(type = 'click') AS clicks_n,
  countIf(type = 'conversion') AS conversions_n
FROM (
  SELECT type, search_id, object_id, position, subtype, value, currency, ts
  FROM `search_analytics`.`interactions`
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND type IN ('click', 'conversion')
    AND object_id != ''
    AND ts >= toDateTime({i_from:UInt32}, 'UTC')
    AND ts < toDateTime({i_to:UInt32}, 'UTC')
    AND (search_id = toUUID({no_search:String}) OR search_id NOT IN (
    SELECT search_id
    FROM `search_analytics`.`search_ids`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND search_id IN (
      SELECT search_id
      FROM `search_analytics`.`interactions`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND ts >= toDateTime({i_from:UInt32}, 'UTC')
        AND ts < toDateTime({i_to:UInt32}, 'UTC')
    )
  ))
    AND (user_token_hash = '' OR user_token_hash NOT IN (
    SELECT user_token_hash
    FROM `search_analytics`.`erased_user_tokens`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
  ))
    AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
    SELECT user_token_hash
    FROM `search_analytics`.`erased_user_tokens`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
  ))
  GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
)
GROUP BY hour_ms;

-- engagement=true, since=7d, interval=day, Europe/Berlin (3/7): SearchStatsRepository.hours
-- GET /search-stats?since=7d&interval=day&tz=Europe/Berlin&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- engagement=true, since=7d, interval=day, Europe/Berlin (4/7): SearchStatsRepository.languages
-- GET /search-stats?since=7d&interval=day&tz=Europe/Berlin&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- engagement=true, since=7d, interval=day, Europe/Berlin (5/7): EngagementRepository.hours
-- GET /search-stats?since=7d&interval=day&tz=Europe/Berlin&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   no_search = "00000000-0000-0000-0000-000000000000"
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(g_tracked) AS tracked,
  sum(g_clicked) AS clicked,
  sum(g_clicks) AS clicks_n,
  sum(g_pos) AS pos_sum,
  sum(g_converted) AS converted,
  sumMap(g_cur, g_val) AS rev,
  rev.1 AS rev_cur,
  arrayMap(x -> toString(x), rev.2) AS rev_val,
  sum(g_carted) AS carted,
  sum(g_purchased) AS purchased,
  sumMap(g_pcur, g_pval) AS pur,
  pur.1 AS pur_cur,
  arrayMap(x -> toString(x), pur.2) AS pur_val
FROM (
  SELECT hour,
    phrase,
    language,
    bot,
    g_tracked,
    g_clicked,
    g_clicks,
    g_pos,
    g_converted,
    g_cur,
    g_val,
    g_carted,
    g_purchased,
    g_pcur,
    g_pval
  FROM (
    SELECT hour,
      phrase,
      language,
      bot,
      count() AS g_tracked,
      countIf(p_clicks > 0) AS g_clicked,
      sum(p_clicks) AS g_clicks,
      sum(p_pos) AS g_pos,
      countIf(p_conversions > 0) AS g_converted,
      sumMap(p_revenue) AS g_rev,
      g_rev.1 AS g_cur,
      g_rev.2 AS g_val,
      countIf(p_carts > 0) AS g_carted,
      countIf(p_purchases > 0) AS g_purchased,
      sumMap(p_purchase_revenue) AS g_pur,
      g_pur.1 AS g_pcur,
      g_pur.2 AS g_pval
    FROM (
      SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
      FROM (
        SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
        FROM `search_analytics`.`search_events`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND id_sent
          AND sign > 0
          AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
          AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      )
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND hits > 0
        AND search_id != toUUID({no_search:String})
        AND search_id NOT IN (
        SELECT search_id
        FROM `search_analytics`.`search_ids`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND first.1 < toDateTime({e0_from:UInt32}, 'UTC')
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
      )
    ) AS s
    LEFT JOIN (
      SELECT search_id,
        countIf(type = 'click') AS p_clicks,
        sumIf(position, type = 'click') AS p_pos,
        countIf(type = 'conversion') AS p_conversions,
        sumMapIf([toString(currency)], [toDecimal128(value, 6)], type = 'conversion' AND value > 0) AS p_revenue,
        countIf(type = 'conversion' AND subtype = 'addToCart') AS p_carts,
        countIf(type = 'conversion' AND subtype = 'purchase') AS p_purchases,
        sumMapIf(
          [toString(currency)],
          [toDecimal128(value, 6)],
          type = 'conversion' AND subtype = 'purchase' AND value > 0
        ) AS p_purchase_revenue
      FROM (
        SELECT type, search_id, object_id, position, subtype, value, currency, ts
        FROM `search_analytics`.`interactions`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND type IN ('click', 'conversion')
          AND object_id != ''
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        )
          AND (user_token_hash = '' OR user_token_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
          AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
        GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
      )
      GROUP BY search_id
    ) AS p USING (search_id)
    GROUP BY hour, phrase, language, bot
  )
)
GROUP BY toUnixTimestamp(hour) * 1000 AS hour_ms;

-- engagement=true, since=7d, interval=day, Europe/Berlin (6/7): EngagementRepository.positions
-- GET /search-stats?since=7d&interval=day&tz=Europe/Berlin&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   last = 21
--   no_search = "00000000-0000-0000-0000-000000000000"
SELECT p, position, sum(clicks) AS clicks_n
FROM (
  SELECT '' AS p, position, clicks
  FROM (
    SELECT hour,
      phrase,
      language,
      bot,
      'position' AS kind,
      least(position, {last:UInt16}) AS position,
      '' AS object_id,
      count() AS clicks,
      0 AS conversions,
      0 AS clicked,
      0 AS carted,
      0 AS purchased,
      [] AS pur_cur,
      [] AS pur_val
    FROM (
      SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
      FROM (
        SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
        FROM `search_analytics`.`search_events`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND id_sent
          AND sign > 0
          AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
          AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      )
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND hits > 0
        AND search_id != toUUID({no_search:String})
        AND search_id NOT IN (
        SELECT search_id
        FROM `search_analytics`.`search_ids`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND first.1 < toDateTime({e0_from:UInt32}, 'UTC')
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
      )
    ) AS s INNER JOIN (
      SELECT type, search_id, object_id, position, subtype, value, currency, ts
      FROM `search_analytics`.`interactions`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND type IN ('click', 'conversion')
        AND object_id != ''
        AND search_id IN (
        SELECT event_id
        FROM `search_analytics`.`search_events`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND id_sent
          AND sign > 0
          AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
          AND ts < toDateTime({e0_to:UInt32}, 'UTC')
      )
        AND (user_token_hash = '' OR user_token_hash NOT IN (
        SELECT user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
      ))
        AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
        SELECT user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
      ))
      GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
    ) AS i USING (search_id)
    WHERE type = 'click'
    GROUP BY hour, phrase, language, bot, position
    UNION ALL
    SELECT hour,
      phrase,
      language,
      bot,
      'object' AS kind,
      0 AS position,
      object_id,
      sum(o_clicks) AS clicks,
      sum(o_conversions) AS conversions,
      countIf(o_clicks > 0) AS clicked,
      countIf(o_carts > 0) AS carted,
      countIf(o_purchases > 0) AS purchased,
      sumMap(o_pur).1 AS pur_cur,
      sumMap(o_pur).2 AS pur_val
    FROM (
      SELECT hour,
        phrase,
        language,
        bot,
        search_id,
        object_id,
        countIf(type = 'click') AS o_clicks,
        countIf(type = 'conversion') AS o_conversions,
        countIf(type = 'conversion' AND subtype = 'addToCart') AS o_carts,
        countIf(type = 'conversion' AND subtype = 'purchase') AS o_purchases,
        sumMapIf(
          [toString(currency)],
          [toDecimal128(value, 6)],
          type = 'conversion' AND subtype = 'purchase' AND value > 0
        ) AS o_pur
      FROM (
        SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
        FROM (
          SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
          ORDER BY search_id, ts, phrase, language, bot, hits
          LIMIT 1 BY search_id
        )
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND bot IN {bots:Array(UInt8)}
          AND hits > 0
          AND search_id != toUUID({no_search:String})
          AND search_id NOT IN (
          SELECT search_id
          FROM `search_analytics`.`search_ids`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND first.1 < toDateTime({e0_from:UInt32}, 'UTC')
            AND search_id IN (
            SELECT event_id
            FROM `search_analytics`.`search_events`
            WHERE customer = {customer:String}
              AND instance = {instance:String}
              AND id_sent
              AND sign > 0
              AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
              AND ts < toDateTime({e0_to:UInt32}, 'UTC')
          ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
        )
      ) AS s INNER JOIN (
        SELECT type, search_id, object_id, position, subtype, value, currency, ts
        FROM `search_analytics`.`interactions`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND type IN ('click', 'conversion')
          AND object_id != ''
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        )
          AND (user_token_hash = '' OR user_token_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
          AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
        GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
      ) AS i USING (search_id)
      GROUP BY hour, phrase, language, bot, search_id, object_id
    )
    GROUP BY hour, phrase, language, bot, object_id
  )
  WHERE kind = 'position'
)
GROUP BY p, position
HAVING clicks_n > 0;

-- engagement=true, since=7d, interval=day, Europe/Berlin (7/7): SearchStatsRepository.users
-- GET /search-stats?since=7d&interval=day&tz=Europe/Berlin&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1774479600,1774566000,1774652400,1774738800,1774821600,1774908000,1774994400,1775080800]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- engagement=true, compare=previous, language=de, with bots (1/8): SearchStatsRepository.distinctTerms
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w0l_d0_from = "2026-03-20"
--   w0l_d0_to = "2026-03-26"
--   w0l_h0_from = 1773910800 (2026-03-19T09:00:00Z)
--   w0l_h0_to = 1773964800 (2026-03-20T00:00:00Z)
--   w0l_h1_from = 1774483200 (2026-03-26T00:00:00Z)
--   w0l_h1_to = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-02"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS current_n, (
  SELECT count()
  FROM (
    SELECT phrase
    FROM (
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND (
          (hour >= toDateTime({w0l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w0l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w0l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w0l_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND ((day >= {w0l_d0_from:Date} AND day < {w0l_d0_to:Date}))
    )
    GROUP BY phrase
  )
) AS previous_n;

-- engagement=true, compare=previous, language=de, with bots (2/8): EngagementRepository.unattributed
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   customer = "acme"
--   i_from = 1773910800 (2026-03-19T09:00:00Z)
--   i_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   no_search = "00000000-0000-0000-0000-000000000000"
SELECT toUnixTimestamp(toStartOfHour(ts)) * 1000 AS hour_ms,
  countIf(type = 'click') AS clicks_n,
  countIf(type = 'conversion') AS conversions_n
FROM (
  SELECT type, search_id, object_id, position, subtype, value, currency, ts
  FROM `search_analytics`.`interactions`
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND type IN ('click', 'conversion')
    AND object_id != ''
    AND ts >= toDateTime({i_from:UInt32}, 'UTC')
    AND ts < toDateTime({i_to:UInt32}, 'UTC')
    AND (search_id = toUUID({no_search:String}) OR search_id NOT IN (
    SELECT search_id
    FROM `search_analytics`.`search_ids`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND search_id IN (
      SELECT search_id
      FROM `search_analytics`.`interactions`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND ts >= toDateTime({i_from:UInt32}, 'UTC')
        AND ts < toDateTime({i_to:UInt32}, 'UTC')
    )
  ))
    AND (user_token_hash = '' OR user_token_hash NOT IN (
    SELECT user_token_hash
    FROM `search_analytics`.`erased_user_tokens`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
  ))
    AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
    SELECT user_token_hash
    FROM `search_analytics`.`erased_user_tokens`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
  ))
  GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
)
GROUP BY hour_ms;

-- engagement=true, compare=previous, language=de, with bots (3/8): SearchStatsRepository.hours
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1773910800 (2026-03-19T09:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- engagement=true, compare=previous, language=de, with bots (4/8): SearchStatsRepository.languages
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- engagement=true, compare=previous, language=de, with bots (5/8): EngagementRepository.hours
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   e0_from = 1773910800 (2026-03-19T09:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   no_search = "00000000-0000-0000-0000-000000000000"
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(g_tracked) AS tracked,
  sum(g_clicked) AS clicked,
  sum(g_clicks) AS clicks_n,
  sum(g_pos) AS pos_sum,
  sum(g_converted) AS converted,
  sumMap(g_cur, g_val) AS rev,
  rev.1 AS rev_cur,
  arrayMap(x -> toString(x), rev.2) AS rev_val,
  sum(g_carted) AS carted,
  sum(g_purchased) AS purchased,
  sumMap(g_pcur, g_pval) AS pur,
  pur.1 AS pur_cur,
  arrayMap(x -> toString(x), pur.2) AS pur_val
FROM (
  SELECT hour,
    phrase,
    language,
    bot,
    g_tracked,
    g_clicked,
    g_clicks,
    g_pos,
    g_converted,
    g_cur,
    g_val,
    g_carted,
    g_purchased,
    g_pcur,
    g_pval
  FROM (
    SELECT hour,
      phrase,
      language,
      bot,
      count() AS g_tracked,
      countIf(p_clicks > 0) AS g_clicked,
      sum(p_clicks) AS g_clicks,
      sum(p_pos) AS g_pos,
      countIf(p_conversions > 0) AS g_converted,
      sumMap(p_revenue) AS g_rev,
      g_rev.1 AS g_cur,
      g_rev.2 AS g_val,
      countIf(p_carts > 0) AS g_carted,
      countIf(p_purchases > 0) AS g_purchased,
      sumMap(p_purchase_revenue) AS g_pur,
      g_pur.1 AS g_pcur,
      g_pur.2 AS g_pval
    FROM (
      SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
      FROM (
        SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
        FROM `search_analytics`.`search_events`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND id_sent
          AND sign > 0
          AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
          AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      )
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND hits > 0
        AND search_id != toUUID({no_search:String})
        AND search_id NOT IN (
        SELECT search_id
        FROM `search_analytics`.`search_ids`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND first.1 < toDateTime({e0_from:UInt32}, 'UTC')
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
      )
    ) AS s
    LEFT JOIN (
      SELECT search_id,
        countIf(type = 'click') AS p_clicks,
        sumIf(position, type = 'click') AS p_pos,
        countIf(type = 'conversion') AS p_conversions,
        sumMapIf([toString(currency)], [toDecimal128(value, 6)], type = 'conversion' AND value > 0) AS p_revenue,
        countIf(type = 'conversion' AND subtype = 'addToCart') AS p_carts,
        countIf(type = 'conversion' AND subtype = 'purchase') AS p_purchases,
        sumMapIf(
          [toString(currency)],
          [toDecimal128(value, 6)],
          type = 'conversion' AND subtype = 'purchase' AND value > 0
        ) AS p_purchase_revenue
      FROM (
        SELECT type, search_id, object_id, position, subtype, value, currency, ts
        FROM `search_analytics`.`interactions`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND type IN ('click', 'conversion')
          AND object_id != ''
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        )
          AND (user_token_hash = '' OR user_token_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
          AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
        GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
      )
      GROUP BY search_id
    ) AS p USING (search_id)
    GROUP BY hour, phrase, language, bot
  )
)
GROUP BY toUnixTimestamp(hour) * 1000 AS hour_ms;

-- engagement=true, compare=previous, language=de, with bots (6/8): EngagementRepository.positions
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   last = 21
--   no_search = "00000000-0000-0000-0000-000000000000"
SELECT p, position, sum(clicks) AS clicks_n
FROM (
  SELECT '' AS p, position, clicks
  FROM (
    SELECT hour,
      phrase,
      language,
      bot,
      'position' AS kind,
      least(position, {last:UInt16}) AS position,
      '' AS object_id,
      count() AS clicks,
      0 AS conversions,
      0 AS clicked,
      0 AS carted,
      0 AS purchased,
      [] AS pur_cur,
      [] AS pur_val
    FROM (
      SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
      FROM (
        SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
        FROM `search_analytics`.`search_events`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND id_sent
          AND sign > 0
          AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
          AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      )
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND hits > 0
        AND search_id != toUUID({no_search:String})
        AND search_id NOT IN (
        SELECT search_id
        FROM `search_analytics`.`search_ids`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND first.1 < toDateTime({e0_from:UInt32}, 'UTC')
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
      )
    ) AS s INNER JOIN (
      SELECT type, search_id, object_id, position, subtype, value, currency, ts
      FROM `search_analytics`.`interactions`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND type IN ('click', 'conversion')
        AND object_id != ''
        AND search_id IN (
        SELECT event_id
        FROM `search_analytics`.`search_events`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND id_sent
          AND sign > 0
          AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
          AND ts < toDateTime({e0_to:UInt32}, 'UTC')
      )
        AND (user_token_hash = '' OR user_token_hash NOT IN (
        SELECT user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
      ))
        AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
        SELECT user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
      ))
      GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
    ) AS i USING (search_id)
    WHERE type = 'click'
    GROUP BY hour, phrase, language, bot, position
    UNION ALL
    SELECT hour,
      phrase,
      language,
      bot,
      'object' AS kind,
      0 AS position,
      object_id,
      sum(o_clicks) AS clicks,
      sum(o_conversions) AS conversions,
      countIf(o_clicks > 0) AS clicked,
      countIf(o_carts > 0) AS carted,
      countIf(o_purchases > 0) AS purchased,
      sumMap(o_pur).1 AS pur_cur,
      sumMap(o_pur).2 AS pur_val
    FROM (
      SELECT hour,
        phrase,
        language,
        bot,
        search_id,
        object_id,
        countIf(type = 'click') AS o_clicks,
        countIf(type = 'conversion') AS o_conversions,
        countIf(type = 'conversion' AND subtype = 'addToCart') AS o_carts,
        countIf(type = 'conversion' AND subtype = 'purchase') AS o_purchases,
        sumMapIf(
          [toString(currency)],
          [toDecimal128(value, 6)],
          type = 'conversion' AND subtype = 'purchase' AND value > 0
        ) AS o_pur
      FROM (
        SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
        FROM (
          SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
          ORDER BY search_id, ts, phrase, language, bot, hits
          LIMIT 1 BY search_id
        )
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND bot IN {bots:Array(UInt8)}
          AND language = {language:String}
          AND hits > 0
          AND search_id != toUUID({no_search:String})
          AND search_id NOT IN (
          SELECT search_id
          FROM `search_analytics`.`search_ids`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND first.1 < toDateTime({e0_from:UInt32}, 'UTC')
            AND search_id IN (
            SELECT event_id
            FROM `search_analytics`.`search_events`
            WHERE customer = {customer:String}
              AND instance = {instance:String}
              AND id_sent
              AND sign > 0
              AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
              AND ts < toDateTime({e0_to:UInt32}, 'UTC')
          ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
        )
      ) AS s INNER JOIN (
        SELECT type, search_id, object_id, position, subtype, value, currency, ts
        FROM `search_analytics`.`interactions`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND type IN ('click', 'conversion')
          AND object_id != ''
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e0_from:UInt32}, 'UTC')
            AND ts < toDateTime({e0_to:UInt32}, 'UTC')
        )
          AND (user_token_hash = '' OR user_token_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
          AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (
          SELECT user_token_hash
          FROM `search_analytics`.`erased_user_tokens`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
        ))
        GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash
      ) AS i USING (search_id)
      GROUP BY hour, phrase, language, bot, search_id, object_id
    )
    GROUP BY hour, phrase, language, bot, object_id
  )
  WHERE kind = 'position'
)
GROUP BY p, position
HAVING clicks_n > 0;

-- engagement=true, compare=previous, language=de, with bots (7/8): SearchStatsRepository.users
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   starts = [1774483200,1774569600,1774656000,1774742400,1774828800,1774915200,1775001600,1775088000]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- engagement=true, compare=previous, language=de, with bots (8/8): SearchStatsRepository.users
-- GET /search-stats?since=7d&compare=previous&language=de&includeBotTraffic=true&engagement=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   d_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_to = 1774519200 (2026-03-26T10:00:00Z)
--   d_to = 1774519200 (2026-03-26T10:00:00Z)
--   instance = "shop"
--   language = "de"
--   starts = []
--   w_from = 1773910800 (2026-03-19T09:00:00Z)
--   w_to = 1774519200 (2026-03-26T10:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND 1
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- ====================================================================================================================

-- tags=mobile AND bf, compare=previous, language=de (1/5): SearchStatsRepository.distinctTaggedTerms
-- GET /search-stats?since=7d&compare=previous&language=de&tags=mobile AND bf
-- params:
--   bots = [0]
--   c_from = 1774519200 (2026-03-26T10:00:00Z)
--   c_to = 1775127600 (2026-04-02T11:00:00Z)
--   customer = "acme"
--   d_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   p_from = 1773910800 (2026-03-19T09:00:00Z)
--   p_to = 1774519200 (2026-03-26T10:00:00Z)
--   tags_wanted = ["mobile","bf"]
SELECT uniqExactIf(
  phrase,
  (hour >= toDateTime({c_from:UInt32}, 'UTC') AND hour < toDateTime({c_to:UInt32}, 'UTC'))
) AS current_n,
  uniqExactIf(
    phrase,
    (hour >= toDateTime({p_from:UInt32}, 'UTC') AND hour < toDateTime({p_to:UInt32}, 'UTC'))
  ) AS previous_n
FROM (
  SELECT phrase, hour
  FROM (
    SELECT customer,
      instance,
      term_id,
      phrase,
      dimension,
      attribute,
      hour,
      zero_hits,
      bot,
      language,
      tags,
      operator,
      value,
      searches,
      users,
      last_search
    FROM (
      SELECT customer,
        instance,
        substring(SHA256(concat(customer, '\0', instance, '\0', phrase)), 1, 16) AS term_id,
        phrase,
        d.1 AS dimension,
        d.2 AS attribute,
        toStartOfHour(ts) AS hour,
        hits = 0 AS zero_hits,
        bot,
        language,
        tags,
        d.3 AS operator,
        d.4 AS value,
        sum(sign) AS searches,
        uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
        SELECT customer, instance, user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
      )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
        SELECT customer, instance, user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
      )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
        SELECT customer, instance, user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
      ))) AS users, max((ts, hits)) AS last_search
      FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
        [('search', '', '', '')],
        arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
        arrayMap(
          f -> ('filter_value', f.1, f.2, f.3),
          arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
        ),
        if(
          empty(filter_attributes),
          [],
          [(
            'filter_set',
            '',
            '',
            toJSONString(
              arraySort(
                arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
              )
            )
          )]
        ),
        if(country = '', [], [('country', '', '', toString(country))]),
        arrayMap(t -> ('tag', '', '', t), tags)
      ) AS d
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
      GROUP BY customer,
        instance,
        term_id,
        phrase,
        dimension,
        attribute,
        hour,
        zero_hits,
        bot,
        language,
        tags,
        operator,
        value
    )
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND dimension = 'tag'
      AND value IN {tags_wanted:Array(String)}
      AND value = arrayFirst(t -> has({tags_wanted:Array(String)}, t), tags)
      AND hasAll(tags, {tags_wanted:Array(String)})
      AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
  )
  WHERE 1
  GROUP BY phrase, hour
  HAVING sum(searches) > 0
);

-- tags=mobile AND bf, compare=previous, language=de (2/5): SearchStatsRepository.users
-- GET /search-stats?since=7d&compare=previous&language=de&tags=mobile AND bf
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   starts = [1774483200,1774569600,1774656000,1774742400,1774828800,1774915200,1775001600,1775088000]
--   tags_wanted = ["mobile","bf"]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    tags,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      tags,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, tags, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND hasAll(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- tags=mobile AND bf, compare=previous, language=de (3/5): SearchStatsRepository.users
-- GET /search-stats?since=7d&compare=previous&language=de&tags=mobile AND bf
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_to = 1774519200 (2026-03-26T10:00:00Z)
--   d_to = 1774519200 (2026-03-26T10:00:00Z)
--   instance = "shop"
--   language = "de"
--   starts = []
--   tags_wanted = ["mobile","bf"]
--   w_from = 1773910800 (2026-03-19T09:00:00Z)
--   w_to = 1774519200 (2026-03-26T10:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    tags,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      tags,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, tags, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND hasAll(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- tags=mobile AND bf, compare=previous, language=de (4/5): SearchStatsRepository.hours
-- GET /search-stats?since=7d&compare=previous&language=de&tags=mobile AND bf
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_from = 1773910800 (2026-03-19T09:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   tags_wanted = ["mobile","bf"]
--   w_from = 1773910800 (2026-03-19T09:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  0 AS newest
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    tags,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      tags,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, tags, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND language = {language:String}
    AND dimension = 'search'
    AND hasAll(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- tags=mobile AND bf, compare=previous, language=de (5/5): SearchStatsRepository.languages
-- GET /search-stats?since=7d&compare=previous&language=de&tags=mobile AND bf
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   tags_wanted = ["mobile","bf"]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    tags,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      tags,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, tags, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND hasAll(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;

-- ====================================================================================================================

-- tags=mobile OR campaign%3Abf (1/4): SearchStatsRepository.distinctTaggedTerms
-- GET /search-stats?since=1d&tags=mobile OR campaign%3Abf
-- params:
--   bots = [0]
--   c_from = 1775037600 (2026-04-01T10:00:00Z)
--   c_to = 1775127600 (2026-04-02T11:00:00Z)
--   customer = "acme"
--   d_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   tags_wanted = ["mobile","campaign:bf"]
SELECT uniqExactIf(
  phrase,
  (hour >= toDateTime({c_from:UInt32}, 'UTC') AND hour < toDateTime({c_to:UInt32}, 'UTC'))
) AS current_n,
  0 AS previous_n
FROM (
  SELECT phrase, hour
  FROM (
    SELECT customer,
      instance,
      term_id,
      phrase,
      dimension,
      attribute,
      hour,
      zero_hits,
      bot,
      language,
      tags,
      operator,
      value,
      searches,
      users,
      last_search
    FROM (
      SELECT customer,
        instance,
        substring(SHA256(concat(customer, '\0', instance, '\0', phrase)), 1, 16) AS term_id,
        phrase,
        d.1 AS dimension,
        d.2 AS attribute,
        toStartOfHour(ts) AS hour,
        hits = 0 AS zero_hits,
        bot,
        language,
        tags,
        d.3 AS operator,
        d.4 AS value,
        sum(sign) AS searches,
        uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
        SELECT customer, instance, user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
      )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
        SELECT customer, instance, user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
      )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
        SELECT customer, instance, user_token_hash
        FROM `search_analytics`.`erased_user_tokens`
      ))) AS users, max((ts, hits)) AS last_search
      FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
        [('search', '', '', '')],
        arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
        arrayMap(
          f -> ('filter_value', f.1, f.2, f.3),
          arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
        ),
        if(
          empty(filter_attributes),
          [],
          [(
            'filter_set',
            '',
            '',
            toJSONString(
              arraySort(
                arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
              )
            )
          )]
        ),
        if(country = '', [], [('country', '', '', toString(country))]),
        arrayMap(t -> ('tag', '', '', t), tags)
      ) AS d
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
      GROUP BY customer,
        instance,
        term_id,
        phrase,
        dimension,
        attribute,
        hour,
        zero_hits,
        bot,
        language,
        tags,
        operator,
        value
    )
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND dimension = 'tag'
      AND value IN {tags_wanted:Array(String)}
      AND value = arrayFirst(t -> has({tags_wanted:Array(String)}, t), tags)
      AND hasAny(tags, {tags_wanted:Array(String)})
      AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
  )
  WHERE 1
  GROUP BY phrase, hour
  HAVING sum(searches) > 0
);

-- tags=mobile OR campaign%3Abf (2/4): SearchStatsRepository.users
-- GET /search-stats?since=1d&tags=mobile OR campaign%3Abf
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   starts = [1775037600,1775041200,1775044800,1775048400,1775052000,1775055600,1775059200,1775062800,1775066400,1775070000,1775073600,1775077200,1775080800,1775084400,1775088000,1775091600,1775095200,1775098800,1775102400,1775106000,1775109600,1775113200,1775116800,1775120400,1775124000]
--   tags_wanted = ["mobile","campaign:bf"]
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket,
  uniqCombined64Merge(14)(users) AS users_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    tags,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      tags,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, tags, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND hasAny(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY GROUPING SETS ((bucket), ());

-- tags=mobile OR campaign%3Abf (3/4): SearchStatsRepository.hours
-- GET /search-stats?since=1d&tags=mobile OR campaign%3Abf
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   tags_wanted = ["mobile","campaign:bf"]
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  0 AS newest
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    tags,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      tags,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, tags, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND hasAny(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms;

-- tags=mobile OR campaign%3Abf (4/4): SearchStatsRepository.languages
-- GET /search-stats?since=1d&tags=mobile OR campaign%3Abf
-- params:
--   bots = [0]
--   customer = "acme"
--   d_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   d_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   d_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   tags_wanted = ["mobile","campaign:bf"]
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT language, sum(searches) AS searches_n
FROM (
  SELECT customer,
    instance,
    dimension,
    attribute,
    hour,
    zero_hits,
    bot,
    language,
    tags,
    operator,
    value,
    searches,
    users,
    last_search
  FROM (
    SELECT customer,
      instance,
      d.1 AS dimension,
      d.2 AS attribute,
      toStartOfHour(ts) AS hour,
      hits = 0 AS zero_hits,
      bot,
      language,
      tags,
      d.3 AS operator,
      d.4 AS value,
      sum(sign) AS searches,
      uniqCombined64StateIf(14)(if((user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )), user_hash, concat('s', session_hash)), (user_hash != '' AND (customer, instance, user_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    )) OR (session_hash != '' AND (customer, instance, session_hash) NOT IN (
      SELECT customer, instance, user_token_hash
      FROM `search_analytics`.`erased_user_tokens`
    ))) AS users, max((ts, hits)) AS last_search
    FROM `search_analytics`.`search_events` ARRAY JOIN arrayConcat(
      [('search', '', '', '')],
      arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
      arrayMap(
        f -> ('filter_value', f.1, f.2, f.3),
        arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))
      ),
      if(
        empty(filter_attributes),
        [],
        [(
          'filter_set',
          '',
          '',
          toJSONString(
            arraySort(
              arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))
            )
          )
        )]
      ),
      if(country = '', [], [('country', '', '', toString(country))]),
      arrayMap(t -> ('tag', '', '', t), tags)
    ) AS d
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND ((ts >= toDateTime({d_r0_from:UInt32}, 'UTC') AND ts < toDateTime({d_r0_to:UInt32}, 'UTC')))
    GROUP BY customer, instance, dimension, attribute, hour, zero_hits, bot, language, tags, operator, value
  )
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND dimension = 'search'
    AND hasAny(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({d_from:UInt32}, 'UTC') AND hour < toDateTime({d_to:UInt32}, 'UTC'))
)
WHERE 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY language
HAVING searches_n > 0
ORDER BY searches_n DESC, language ASC;
