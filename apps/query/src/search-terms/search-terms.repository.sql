-- SearchTermsRepository: GET /search-terms
-- Every statement the repository sends for each case, at now = 2026-04-02T10:20:00.000Z,
-- customer acme, instance shop. Only whitespace is changed from what is sent; the `;` is added here.
-- Written by apps/query/src/search-terms/search-terms.repository.sql.spec.ts; do not edit by hand.
-- After an intended change: UPDATE_SQL=1 npx jest apps/query/src/search-terms/search-terms.repository.sql.spec.ts

-- ====================================================================================================================

-- top terms, default window (since=1d), UTC (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, default window (since=1d), UTC (2/2): SearchTermsRepository.terms
-- GET /search-terms
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-04-02"
--   w1_d0_to = "2026-04-03"
--   w1_h0_from = 1775037600 (2026-04-01T10:00:00Z)
--   w1_h0_to = 1775088000 (2026-04-02T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, since=1d, Europe/Berlin (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=1d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, since=1d, Europe/Berlin (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=1d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-04-02"
--   w1_d0_to = "2026-04-03"
--   w1_h0_from = 1775037600 (2026-04-01T10:00:00Z)
--   w1_h0_to = 1775088000 (2026-04-02T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, since=7d, UTC (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, since=7d, UTC (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=7d
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, since=30d, Europe/Berlin, second page (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=30d&tz=Europe/Berlin&_start=20&_end=40
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, since=30d, Europe/Berlin, second page (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=30d&tz=Europe/Berlin&_start=20&_end=40
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 20
--   start = 20
--   w1_d0_from = "2026-03-04"
--   w1_d0_to = "2026-03-09"
--   w1_h0_from = 1772532000 (2026-03-03T10:00:00Z)
--   w1_h0_to = 1772582400 (2026-03-04T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-09"
--   w1_week0_to = "2026-04-06"
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, from/to whole days, UTC (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1773964800 (2026-03-20T00:00:00Z)
--   w_to = 1774569600 (2026-03-27T00:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, from/to whole days, UTC (2/2): SearchTermsRepository.terms
-- GET /search-terms?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-03-20"
--   w1_d0_to = "2026-03-27"
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, from/to whole days, Europe/Berlin (across the switch to summer time) (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, from/to whole days, Europe/Berlin (across the switch to summer time) (2/2): SearchTermsRepository.terms
-- GET /search-terms?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-03-26"
--   w1_d0_to = "2026-04-02"
--   w1_h0_from = 1774479600 (2026-03-25T23:00:00Z)
--   w1_h0_to = 1774483200 (2026-03-26T00:00:00Z)
--   w1_m0_from = 1775080800 (2026-04-01T22:00:00Z)
--   w1_m0_to = 1775088000 (2026-04-02T00:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, from/to date-times, UTC (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?from=2026-04-01T06:30&to=2026-04-01T18:00
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775023200 (2026-04-01T06:00:00Z)
--   w_to = 1775066400 (2026-04-01T18:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, from/to date-times, UTC (2/2): SearchTermsRepository.terms
-- GET /search-terms?from=2026-04-01T06:30&to=2026-04-01T18:00
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_h0_from = 1775023200 (2026-04-01T06:00:00Z)
--   w1_h0_to = 1775066400 (2026-04-01T18:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC')))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, language=de (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, language=de (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   start = 0
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_terms_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 0
      AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, with bots (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, with bots (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=7d&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, compare=previous (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, compare=previous (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=7d&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w0_d0_from = "2026-03-20"
--   w0_d0_to = "2026-03-26"
--   w0_h0_from = 1773910800 (2026-03-19T09:00:00Z)
--   w0_h0_to = 1773964800 (2026-03-20T00:00:00Z)
--   w0_h1_from = 1774483200 (2026-03-26T00:00:00Z)
--   w0_h1_to = 1774519200 (2026-03-26T10:00:00Z)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 0 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
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
      AND zero_hits = 0
      AND ((day >= {w0_d0_from:Date} AND day < {w0_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- top terms, sort=rising (implies compare), Europe/Berlin, language=de (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&tz=Europe/Berlin&sort=rising&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- top terms, sort=rising (implies compare), Europe/Berlin, language=de (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=7d&tz=Europe/Berlin&sort=rising&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   start = 0
--   w0l_d0_from = "2026-03-20"
--   w0l_d0_to = "2026-03-26"
--   w0l_h0_from = 1773910800 (2026-03-19T09:00:00Z)
--   w0l_h0_to = 1773964800 (2026-03-20T00:00:00Z)
--   w0l_h1_from = 1774483200 (2026-03-26T00:00:00Z)
--   w0l_h1_to = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_terms_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 0
      AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 0 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 0
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
      AND zero_hits = 0
      AND ((day >= {w0l_d0_from:Date} AND day < {w0l_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY toInt64(count) - toInt64(previous_count) DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- zero-result terms (hits=false) (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&hits=false
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- zero-result terms (hits=false) (2/3): SearchTermsRepository.terms
-- GET /search-terms?since=7d&hits=false
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase,
  count,
  previous_count,
  handlers,
  if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled_languages,
  count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
LEFT JOIN (
  SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
  FROM (
    SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
    FROM (
      SELECT type, id, handled_phrases, language, deleted
      FROM `search_analytics`.`entities`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND kind = 'save'
      ORDER BY type, id, version DESC
      LIMIT 1 BY type, id
    )
    WHERE NOT deleted
  )
  GROUP BY phrase
) AS h USING (phrase)
LEFT JOIN (
  SELECT phrase, arraySort(groupArray(language)) AS languages
  FROM (
    SELECT phrase, language, sum(signed) AS searches
    FROM (
      SELECT phrase,
        language,
        if(
          (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase IN (
        SELECT phrase
        FROM (
          SELECT phrase,
            arraySort(groupUniqArray((type, id))) AS handlers,
            arraySort(groupUniqArray(language)) AS covered
          FROM (
            SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
            FROM (
              SELECT type, id, handled_phrases, language, deleted
              FROM `search_analytics`.`entities`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND kind = 'save'
              ORDER BY type, id, version DESC
              LIMIT 1 BY type, id
            )
            WHERE NOT deleted
          )
          GROUP BY phrase
        )
      )
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase IN (
        SELECT phrase
        FROM (
          SELECT phrase,
            arraySort(groupUniqArray((type, id))) AS handlers,
            arraySort(groupUniqArray(language)) AS covered
          FROM (
            SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
            FROM (
              SELECT type, id, handled_phrases, language, deleted
              FROM `search_analytics`.`entities`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND kind = 'save'
              ORDER BY type, id, version DESC
              LIMIT 1 BY type, id
            )
            WHERE NOT deleted
          )
          GROUP BY phrase
        )
      )
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase)
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- zero-result terms (hits=false) (3/3): SearchTermsRepository.languagesOfUnhandled
-- GET /search-terms?since=7d&hits=false
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrases = ["summer dress"]
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, arraySort(groupArray(language)) AS languages
FROM (
  SELECT phrase, language, sum(signed) AS searches
  FROM (
    SELECT phrase,
      language,
      if(
        (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND phrase IN {phrases:Array(String)}
      AND (
        (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_terms_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND phrase IN {phrases:Array(String)}
      AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
  )
  GROUP BY phrase, language
  HAVING searches > 0
)
GROUP BY phrase;

-- ====================================================================================================================

-- zero-result terms, handled=true (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&hits=false&handled=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- zero-result terms, handled=true (2/3): SearchTermsRepository.terms
-- GET /search-terms?since=7d&hits=false&handled=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase,
  count,
  previous_count,
  handlers,
  if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled_languages,
  count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
LEFT JOIN (
  SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
  FROM (
    SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
    FROM (
      SELECT type, id, handled_phrases, language, deleted
      FROM `search_analytics`.`entities`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND kind = 'save'
      ORDER BY type, id, version DESC
      LIMIT 1 BY type, id
    )
    WHERE NOT deleted
  )
  GROUP BY phrase
) AS h USING (phrase)
LEFT JOIN (
  SELECT phrase, arraySort(groupArray(language)) AS languages
  FROM (
    SELECT phrase, language, sum(signed) AS searches
    FROM (
      SELECT phrase,
        language,
        if(
          (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase IN (
        SELECT phrase
        FROM (
          SELECT phrase,
            arraySort(groupUniqArray((type, id))) AS handlers,
            arraySort(groupUniqArray(language)) AS covered
          FROM (
            SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
            FROM (
              SELECT type, id, handled_phrases, language, deleted
              FROM `search_analytics`.`entities`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND kind = 'save'
              ORDER BY type, id, version DESC
              LIMIT 1 BY type, id
            )
            WHERE NOT deleted
          )
          GROUP BY phrase
        )
      )
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase IN (
        SELECT phrase
        FROM (
          SELECT phrase,
            arraySort(groupUniqArray((type, id))) AS handlers,
            arraySort(groupUniqArray(language)) AS covered
          FROM (
            SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
            FROM (
              SELECT type, id, handled_phrases, language, deleted
              FROM `search_analytics`.`entities`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND kind = 'save'
              ORDER BY type, id, version DESC
              LIMIT 1 BY type, id
            )
            WHERE NOT deleted
          )
          GROUP BY phrase
        )
      )
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase)
WHERE (notEmpty(handlers) AND empty(unhandled_languages))
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- zero-result terms, handled=true (3/3): SearchTermsRepository.languagesOfUnhandled
-- GET /search-terms?since=7d&hits=false&handled=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrases = ["summer dress"]
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, arraySort(groupArray(language)) AS languages
FROM (
  SELECT phrase, language, sum(signed) AS searches
  FROM (
    SELECT phrase,
      language,
      if(
        (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND phrase IN {phrases:Array(String)}
      AND (
        (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_terms_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND phrase IN {phrases:Array(String)}
      AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
  )
  GROUP BY phrase, language
  HAVING searches > 0
)
GROUP BY phrase;

-- ====================================================================================================================

-- zero-result terms, handled=false, language=de, with bots, Europe/Berlin (1/2): SearchTermsRepository.newestEvent
-- GET /search-terms?since=30d&tz=Europe/Berlin&hits=false&handled=false&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND zero_hits = 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- zero-result terms, handled=false, language=de, with bots, Europe/Berlin (2/2): SearchTermsRepository.terms
-- GET /search-terms?since=30d&tz=Europe/Berlin&hits=false&handled=false&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   start = 0
--   w1l_d0_from = "2026-03-04"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1772532000 (2026-03-03T10:00:00Z)
--   w1l_h0_to = 1772582400 (2026-03-04T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, count, previous_count, handlers, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 1
      AND (
        (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_terms_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 1
      AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
LEFT JOIN (
  SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
  FROM (
    SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
    FROM (
      SELECT type, id, handled_phrases, language, deleted
      FROM `search_analytics`.`entities`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND kind = 'save'
      ORDER BY type, id, version DESC
      LIMIT 1 BY type, id
    )
    WHERE NOT deleted
      AND (language = '' OR language = {language:String})
  )
  GROUP BY phrase
) AS h USING (phrase)
WHERE NOT (notEmpty(handlers))
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- ====================================================================================================================

-- a page past the end (no rows: the total is counted apart) (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&_start=1000&_end=1010
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- a page past the end (no rows: the total is counted apart) (2/3): SearchTermsRepository.terms
-- GET /search-terms?since=7d&_start=1000&_end=1010
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 1000
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- a page past the end (no rows: the total is counted apart) (3/3): SearchTermsRepository.total
-- GET /search-terms?since=7d&_start=1000&_end=1010
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT count() AS total
FROM (
  SELECT phrase, count, previous_count, count() OVER () AS total
  FROM (
    SELECT phrase, sum(signed) AS count, 0 AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  ORDER BY count DESC, phrase ASC
);

-- ====================================================================================================================

-- CSV, top terms, since=7d (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- CSV, top terms, since=7d (2/3): SearchTermsRepository.total
-- GET /search-terms?since=7d&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT count() AS total
FROM (
  SELECT phrase, count, previous_count, count() OVER () AS total
  FROM (
    SELECT phrase, sum(signed) AS count, 0 AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  ORDER BY count DESC, phrase ASC
);

-- CSV, top terms, since=7d (3/3): SearchTermsRepository.csvLines
-- GET /search-terms?since=7d&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 100000
--   start = 0
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT concat(
  if(
    match(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '[,"\r\n]'),
    concat('"', replaceAll(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '"', '""'), '"'),
    if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase)
  ),
  ',',
  toString(count),
  '\r'
)
FROM (
  SELECT phrase, count, previous_count, count() OVER () AS total
  FROM (
    SELECT phrase, sum(signed) AS count, 0 AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  ORDER BY count DESC, phrase ASC
)
LIMIT {limit:UInt32} OFFSET {start:UInt32}
FORMAT TSVRaw;

-- ====================================================================================================================

-- CSV, zero-result terms, compare=previous, language=de, Europe/Berlin, paged (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&tz=Europe/Berlin&hits=false&compare=previous&language=de&_start=0&_end=100&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND zero_hits = 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- CSV, zero-result terms, compare=previous, language=de, Europe/Berlin, paged (2/3): SearchTermsRepository.total
-- GET /search-terms?since=7d&tz=Europe/Berlin&hits=false&compare=previous&language=de&_start=0&_end=100&format=csv
-- params:
--   bots = [0]
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
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT count() AS total
FROM (
  SELECT phrase, count, previous_count, handlers, count() OVER () AS total
  FROM (
    SELECT phrase, sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND zero_hits = 1
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND zero_hits = 1
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND zero_hits = 1
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
        AND zero_hits = 1
        AND ((day >= {w0l_d0_from:Date} AND day < {w0l_d0_to:Date}))
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  LEFT JOIN (
    SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
    FROM (
      SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
      FROM (
        SELECT type, id, handled_phrases, language, deleted
        FROM `search_analytics`.`entities`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND kind = 'save'
        ORDER BY type, id, version DESC
        LIMIT 1 BY type, id
      )
      WHERE NOT deleted
        AND (language = '' OR language = {language:String})
    )
    GROUP BY phrase
  ) AS h USING (phrase)
  ORDER BY count DESC, phrase ASC
);

-- CSV, zero-result terms, compare=previous, language=de, Europe/Berlin, paged (3/3): SearchTermsRepository.csvLines
-- GET /search-terms?since=7d&tz=Europe/Berlin&hits=false&compare=previous&language=de&_start=0&_end=100&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   limit = 100
--   start = 0
--   w0l_d0_from = "2026-03-20"
--   w0l_d0_to = "2026-03-26"
--   w0l_h0_from = 1773910800 (2026-03-19T09:00:00Z)
--   w0l_h0_to = 1773964800 (2026-03-20T00:00:00Z)
--   w0l_h1_from = 1774483200 (2026-03-26T00:00:00Z)
--   w0l_h1_to = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT concat(
  if(
    match(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '[,"\r\n]'),
    concat('"', replaceAll(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '"', '""'), '"'),
    if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase)
  ),
  ',',
  toString(count),
  ',',
  toString(previous_count),
  ',',
  if(previous_count = 0, '', toString(count / previous_count - 1)),
  ',',
  if(notEmpty(handlers), 'true', 'false'),
  ',',
  if(
    match(
      if(
        match(arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|'), '^[=+@\t\r-]'),
        concat('\'', arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')),
        arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')
      ),
      '[,"\r\n]'
    ),
    concat(
      '"',
      replaceAll(
        if(
          match(arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|'), '^[=+@\t\r-]'),
          concat('\'', arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')),
          arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')
        ),
        '"',
        '""'
      ),
      '"'
    ),
    if(
      match(arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|'), '^[=+@\t\r-]'),
      concat('\'', arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')),
      arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')
    )
  ),
  '\r'
)
FROM (
  SELECT phrase, count, previous_count, handlers, count() OVER () AS total
  FROM (
    SELECT phrase, sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND zero_hits = 1
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND zero_hits = 1
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND language = {language:String}
        AND zero_hits = 1
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
        AND zero_hits = 1
        AND ((day >= {w0l_d0_from:Date} AND day < {w0l_d0_to:Date}))
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  LEFT JOIN (
    SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
    FROM (
      SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
      FROM (
        SELECT type, id, handled_phrases, language, deleted
        FROM `search_analytics`.`entities`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND kind = 'save'
        ORDER BY type, id, version DESC
        LIMIT 1 BY type, id
      )
      WHERE NOT deleted
        AND (language = '' OR language = {language:String})
    )
    GROUP BY phrase
  ) AS h USING (phrase)
  ORDER BY count DESC, phrase ASC
)
LIMIT {limit:UInt32} OFFSET {start:UInt32}
FORMAT TSVRaw;

-- ====================================================================================================================

-- engagement=true, since=7d, language=de (1/5): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- engagement=true, since=7d, language=de (2/5): SearchTermsRepository.terms
-- GET /search-terms?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   start = 0
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_terms_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND language = {language:String}
      AND zero_hits = 0
      AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- engagement=true, since=7d, language=de (3/5): SearchTermsRepository.extras
-- GET /search-terms?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   ids = ["97a12b91792dfc29b861d7fdd3c9dc09"]
--   instance = "shop"
--   language = "de"
--   x_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   x_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT phrase,
  maxIf(last_search, dimension = 'search').2 AS last_hits,
  sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
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
      AND ((ts >= toDateTime({x_r0_from:UInt32}, 'UTC') AND ts < toDateTime({x_r0_to:UInt32}, 'UTC')))
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
    AND (dimension = 'search')
    AND 1
    AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    AND term_id IN (
    SELECT unhex(arrayJoin({ids:Array(String)}))
  )
)
GROUP BY phrase;

-- engagement=true, since=7d, language=de (4/5): EngagementRepository.phrases
-- GET /search-terms?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   no_search = "00000000-0000-0000-0000-000000000000"
--   phrases = ["summer dress"]
SELECT phrase,
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
        AND phrase IN {phrases:Array(String)}
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
GROUP BY phrase;

-- engagement=true, since=7d, language=de (5/5): EngagementRepository.positions
-- GET /search-terms?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   last = 21
--   no_search = "00000000-0000-0000-0000-000000000000"
--   phrases = ["summer dress"]
SELECT p, position, sum(clicks) AS clicks_n
FROM (
  SELECT phrase AS p, position, clicks
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
        AND phrase IN {phrases:Array(String)}
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
        SELECT search_id
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
            AND phrase IN {phrases:Array(String)}
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
        )
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
          AND phrase IN {phrases:Array(String)}
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
          SELECT search_id
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
              AND phrase IN {phrases:Array(String)}
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
          )
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

-- ====================================================================================================================

-- sort=no_clicks (implies engagement), since=30d, Europe/Berlin, with bots (1/4): SearchTermsRepository.newestEvent
-- GET /search-terms?since=30d&tz=Europe/Berlin&sort=no_clicks&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- sort=no_clicks (implies engagement), since=30d, Europe/Berlin, with bots (2/4): SearchTermsRepository.terms
-- GET /search-terms?since=30d&tz=Europe/Berlin&sort=no_clicks&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   e0_from = 1772532000 (2026-03-03T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   no_search = "00000000-0000-0000-0000-000000000000"
--   start = 0
--   w1_d0_from = "2026-03-04"
--   w1_d0_to = "2026-03-09"
--   w1_h0_from = 1772532000 (2026-03-03T10:00:00Z)
--   w1_h0_to = 1772582400 (2026-03-04T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-09"
--   w1_week0_to = "2026-04-06"
SELECT phrase,
  count,
  previous_count,
  count() OVER () AS total,
  tracked,
  clicked,
  clicks_n,
  pos_sum,
  converted,
  rev_cur,
  rev_val,
  carted,
  purchased,
  pur_cur,
  pur_val
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
LEFT JOIN (
  SELECT phrase,
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
  GROUP BY phrase
) AS e USING (phrase)
ORDER BY toInt64(tracked) - toInt64(clicked) DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- sort=no_clicks (implies engagement), since=30d, Europe/Berlin, with bots (3/4): SearchTermsRepository.extras
-- GET /search-terms?since=30d&tz=Europe/Berlin&sort=no_clicks&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   ids = ["97a12b91792dfc29b861d7fdd3c9dc09"]
--   instance = "shop"
--   language = "" (sent, not used)
--   x_from = 1772532000 (2026-03-03T10:00:00Z)
--   x_r0_from = 1772532000 (2026-03-03T10:00:00Z)
--   x_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   x_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT phrase,
  maxIf(last_search, dimension = 'search').2 AS last_hits,
  sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
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
      AND ((ts >= toDateTime({x_r0_from:UInt32}, 'UTC') AND ts < toDateTime({x_r0_to:UInt32}, 'UTC')))
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
    AND (dimension = 'search')
    AND 1
    AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    AND term_id IN (
    SELECT unhex(arrayJoin({ids:Array(String)}))
  )
)
GROUP BY phrase;

-- sort=no_clicks (implies engagement), since=30d, Europe/Berlin, with bots (4/4): EngagementRepository.positions
-- GET /search-terms?since=30d&tz=Europe/Berlin&sort=no_clicks&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   e0_from = 1772532000 (2026-03-03T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   last = 21
--   no_search = "00000000-0000-0000-0000-000000000000"
--   phrases = ["summer dress"]
SELECT p, position, sum(clicks) AS clicks_n
FROM (
  SELECT phrase AS p, position, clicks
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
        AND phrase IN {phrases:Array(String)}
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
        SELECT search_id
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
            AND phrase IN {phrases:Array(String)}
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
        )
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
          AND phrase IN {phrases:Array(String)}
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
          SELECT search_id
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
              AND phrase IN {phrases:Array(String)}
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
          )
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

-- ====================================================================================================================

-- CSV, engagement=true, compare=previous, since=7d (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&compare=previous&engagement=true&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- CSV, engagement=true, compare=previous, since=7d (2/3): SearchTermsRepository.total
-- GET /search-terms?since=7d&compare=previous&engagement=true&format=csv
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
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT count() AS total
FROM (
  SELECT phrase, count, previous_count, count() OVER () AS total
  FROM (
    SELECT phrase, sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
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
        AND zero_hits = 0
        AND ((day >= {w0_d0_from:Date} AND day < {w0_d0_to:Date}))
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  ORDER BY count DESC, phrase ASC
);

-- CSV, engagement=true, compare=previous, since=7d (3/3): SearchTermsRepository.csvLines
-- GET /search-terms?since=7d&compare=previous&engagement=true&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 100000
--   no_search = "00000000-0000-0000-0000-000000000000"
--   start = 0
--   w0_d0_from = "2026-03-20"
--   w0_d0_to = "2026-03-26"
--   w0_h0_from = 1773910800 (2026-03-19T09:00:00Z)
--   w0_h0_to = 1773964800 (2026-03-20T00:00:00Z)
--   w0_h1_from = 1774483200 (2026-03-26T00:00:00Z)
--   w0_h1_to = 1774519200 (2026-03-26T10:00:00Z)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
--   x_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   x_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT concat(
  if(
    match(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '[,"\r\n]'),
    concat('"', replaceAll(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '"', '""'), '"'),
    if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase)
  ),
  ',',
  toString(count),
  ',',
  toString(last_hits),
  ',',
  toString(previous_count),
  ',',
  if(previous_count = 0, '', toString(count / previous_count - 1)),
  ',',
  toString(tracked),
  ',',
  toString(clicked),
  ',',
  if(tracked = 0, '', toString(clicked / tracked)),
  ',',
  toString(clicks_n),
  ',',
  if(clicks_n = 0, '', toString(pos_sum / clicks_n)),
  ',',
  toString(converted),
  ',',
  if(tracked = 0, '', toString(converted / tracked)),
  ',',
  arrayStringConcat(arrayMap((c, v) -> concat(c, ':', v), rev_cur, rev_val), '|'),
  ',',
  toString(carted),
  ',',
  if(tracked = 0, '', toString(carted / tracked)),
  ',',
  toString(purchased),
  ',',
  if(tracked = 0, '', toString(purchased / tracked)),
  ',',
  arrayStringConcat(arrayMap((c, v) -> concat(c, ':', v), pur_cur, pur_val), '|'),
  '\r'
)
FROM (
  SELECT phrase,
    count,
    previous_count,
    count() OVER () AS total,
    tracked,
    clicked,
    clicks_n,
    pos_sum,
    converted,
    rev_cur,
    rev_val,
    carted,
    purchased,
    pur_cur,
    pur_val,
    last_hits,
    with_filters
  FROM (
    SELECT phrase, sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 0 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 0
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
        AND zero_hits = 0
        AND ((day >= {w0_d0_from:Date} AND day < {w0_d0_to:Date}))
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  LEFT JOIN (
    SELECT phrase,
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
    GROUP BY phrase
  ) AS e USING (phrase)
  LEFT JOIN (
    SELECT phrase,
      maxIf(last_search, dimension = 'search').2 AS last_hits,
      sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
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
          AND ((ts >= toDateTime({x_r0_from:UInt32}, 'UTC') AND ts < toDateTime({x_r0_to:UInt32}, 'UTC')))
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
        AND (dimension = 'search')
        AND 1
        AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    )
    GROUP BY phrase
  ) AS x USING (phrase)
  ORDER BY count DESC, phrase ASC
)
LIMIT {limit:UInt32} OFFSET {start:UInt32}
FORMAT TSVRaw;

-- ====================================================================================================================

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (1/8): DimensionRepository.plan
-- GET /search-terms?engagement=true
-- params:
--   customer = "acme"
--   instance = "shop"
--   v_from = 1775037600 (2026-04-01T10:00:00Z)
--   v_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms, toUnixTimestamp64Micro(version) AS version_us
FROM (
  SELECT customer,
    instance,
    hour,
    newest AS version,
    counted AS computed,
    phrase_counted AS phrase_computed,
    untagged_counted AS untagged_computed,
    tagged_counted AS tagged_computed,
    recorded_total AS recorded,
    total AS stored
  FROM (
    SELECT customer,
      instance,
      hour,
      max(version) AS newest,
      argMax(searches, version) AS counted,
      argMax(phrase_searches, version) AS phrase_counted,
      argMax(untagged_searches, version) AS untagged_counted,
      argMax(tagged_searches, version) AS tagged_counted,
      argMax(totals, version) AS recorded_total
    FROM `search_analytics`.`search_dimension_versions`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND hour >= toDateTime({v_from:UInt32}, 'UTC')
      AND hour < toDateTime({v_to:UInt32}, 'UTC')
    GROUP BY customer, instance, hour
  ) AS v FULL OUTER JOIN (
    SELECT customer, instance, hour, toInt64(sum(searches)) AS total
    FROM `search_analytics`.`search_totals_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND hour >= toDateTime({v_from:UInt32}, 'UTC')
      AND hour < toDateTime({v_to:UInt32}, 'UTC')
    GROUP BY customer, instance, hour
  ) AS s USING (customer, instance, hour)
)
WHERE version_us > 0
  AND phrase_computed = stored
ORDER BY hour SETTINGS join_use_nulls = 0;

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (2/8): SearchTermsRepository.newestEvent
-- GET /search-terms?engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 0
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (3/8): SearchTermsRepository.terms
-- GET /search-terms?engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-04-02"
--   w1_d0_to = "2026-04-03"
--   w1_h0_from = 1775037600 (2026-04-01T10:00:00Z)
--   w1_h0_to = 1775088000 (2026-04-02T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 0
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (4/8): EngagementRepository.plan
-- GET /search-terms?engagement=true
-- params:
--   customer = "acme"
--   instance = "shop"
--   layout = 2
--   v_from = 1775037600 (2026-04-01T10:00:00Z)
--   v_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms, toUnixTimestamp64Micro(max(version)) AS version_us
FROM `search_analytics`.`engagement_versions`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND hour >= toDateTime({v_from:UInt32}, 'UTC')
  AND hour < toDateTime({v_to:UInt32}, 'UTC')
  AND layout = {layout:UInt8}
GROUP BY hour
ORDER BY hour;

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (5/8): SearchTermsRepository.extras
-- GET /search-terms?engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   ids = ["97a12b91792dfc29b861d7fdd3c9dc09"]
--   instance = "shop"
--   language = "" (sent, not used)
--   x_ahead_from = [1775124000]
--   x_ahead_to = [1775127600]
--   x_ahead_version = [null]
--   x_from = 1775037600 (2026-04-01T10:00:00Z)
--   x_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   x_r0_to = 1775124000 (2026-04-02T10:00:00Z)
--   x_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT phrase,
  maxIf(last_search, dimension = 'search').2 AS last_hits,
  sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
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
      AND ((ts >= toDateTime({x_r0_from:UInt32}, 'UTC') AND ts < toDateTime({x_r0_to:UInt32}, 'UTC')))
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
    AND (dimension = 'search')
    AND 1
    AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    AND term_id IN (
    SELECT unhex(arrayJoin({ids:Array(String)}))
  )
  UNION ALL
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
  FROM `search_analytics`.`search_phrase_dimensions_hourly`
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND (dimension = 'search')
    AND 1
    AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    AND term_id IN (
    SELECT unhex(arrayJoin({ids:Array(String)}))
  )
    AND (hour, version) IN (
    SELECT toDateTime(arrayJoin(range(a.1, a.2, 3600)), 'UTC'), fromUnixTimestamp64Micro(a.3, 'UTC')
    FROM (
      SELECT arrayJoin(
        arrayZip({x_ahead_from:Array(UInt32)}, {x_ahead_to:Array(UInt32)}, {x_ahead_version:Array(Int64)})
      ) AS a
    )
  )
)
GROUP BY phrase;

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (6/8): EngagementRepository.plan
-- GET /search-terms?engagement=true
-- params:
--   customer = "acme"
--   instance = "shop"
--   layout = 2
--   v_from = 1775037600 (2026-04-01T10:00:00Z)
--   v_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp(hour) * 1000 AS hour_ms, toUnixTimestamp64Micro(max(version)) AS version_us
FROM `search_analytics`.`engagement_versions`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND hour >= toDateTime({v_from:UInt32}, 'UTC')
  AND hour < toDateTime({v_to:UInt32}, 'UTC')
  AND layout = {layout:UInt8}
GROUP BY hour
ORDER BY hour;

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (7/8): EngagementRepository.phrases
-- GET /search-terms?engagement=true
-- params:
--   ahead_from = [1775044800,1775102400]
--   ahead_to = [1775102400,1775120400]
--   ahead_version = [1775052000000007,1775120400000007]
--   bots = [0]
--   customer = "acme"
--   e0_from = 1775037600 (2026-04-01T10:00:00Z)
--   e0_to = 1775044800 (2026-04-01T12:00:00Z)
--   e1_from = 1775120400 (2026-04-02T09:00:00Z)
--   e1_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   no_search = "00000000-0000-0000-0000-000000000000"
--   phrases = ["summer dress"]
SELECT phrase,
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
        AND phrase IN {phrases:Array(String)}
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
  UNION ALL
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
          AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
          AND ts < toDateTime({e1_to:UInt32}, 'UTC')
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      )
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND hits > 0
        AND search_id != toUUID({no_search:String})
        AND phrase IN {phrases:Array(String)}
        AND search_id NOT IN (
        SELECT search_id
        FROM `search_analytics`.`search_ids`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND first.1 < toDateTime({e1_from:UInt32}, 'UTC')
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
            AND ts < toDateTime({e1_to:UInt32}, 'UTC')
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
            AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
            AND ts < toDateTime({e1_to:UInt32}, 'UTC')
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
  UNION ALL
  SELECT hour,
    phrase,
    language,
    bot,
    tracked AS g_tracked,
    clicked AS g_clicked,
    clicks AS g_clicks,
    pos_sum AS g_pos,
    converted AS g_converted,
    rev_cur AS g_cur,
    rev_val AS g_val,
    carted AS g_carted,
    purchased AS g_purchased,
    pur_cur AS g_pcur,
    pur_val AS g_pval
  FROM `search_analytics`.`engagement_phrases_hourly`
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND phrase IN {phrases:Array(String)}
    AND (hour, version) IN (
    SELECT toDateTime(arrayJoin(range(a.1, a.2, 3600)), 'UTC'), fromUnixTimestamp64Micro(a.3, 'UTC')
    FROM (
      SELECT arrayJoin(
        arrayZip({ahead_from:Array(UInt32)}, {ahead_to:Array(UInt32)}, {ahead_version:Array(Int64)})
      ) AS a
    )
  )
)
GROUP BY phrase;

-- engagement=true computed ahead, since=1d: hours computed ahead and hours read raw (8/8): EngagementRepository.positions
-- GET /search-terms?engagement=true
-- params:
--   ahead_from = [1775044800,1775102400]
--   ahead_to = [1775102400,1775120400]
--   ahead_version = [1775052000000007,1775120400000007]
--   bots = [0]
--   customer = "acme"
--   e0_from = 1775037600 (2026-04-01T10:00:00Z)
--   e0_to = 1775044800 (2026-04-01T12:00:00Z)
--   e1_from = 1775120400 (2026-04-02T09:00:00Z)
--   e1_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   last = 21
--   no_search = "00000000-0000-0000-0000-000000000000"
--   phrases = ["summer dress"]
SELECT p, position, sum(clicks) AS clicks_n
FROM (
  SELECT phrase AS p, position, clicks
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
        AND phrase IN {phrases:Array(String)}
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
        SELECT search_id
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
            AND phrase IN {phrases:Array(String)}
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
        )
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
          AND phrase IN {phrases:Array(String)}
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
          SELECT search_id
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
              AND phrase IN {phrases:Array(String)}
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
          )
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
  UNION ALL
  SELECT phrase AS p, position, clicks
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
          AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
          AND ts < toDateTime({e1_to:UInt32}, 'UTC')
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      )
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND hits > 0
        AND search_id != toUUID({no_search:String})
        AND phrase IN {phrases:Array(String)}
        AND search_id NOT IN (
        SELECT search_id
        FROM `search_analytics`.`search_ids`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND first.1 < toDateTime({e1_from:UInt32}, 'UTC')
          AND search_id IN (
          SELECT event_id
          FROM `search_analytics`.`search_events`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND id_sent
            AND sign > 0
            AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
            AND ts < toDateTime({e1_to:UInt32}, 'UTC')
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
        SELECT search_id
        FROM (
          SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
          FROM (
            SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
            FROM `search_analytics`.`search_events`
            WHERE customer = {customer:String}
              AND instance = {instance:String}
              AND id_sent
              AND sign > 0
              AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
              AND ts < toDateTime({e1_to:UInt32}, 'UTC')
            ORDER BY search_id, ts, phrase, language, bot, hits
            LIMIT 1 BY search_id
          )
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND bot IN {bots:Array(UInt8)}
            AND hits > 0
            AND search_id != toUUID({no_search:String})
            AND phrase IN {phrases:Array(String)}
            AND search_id NOT IN (
            SELECT search_id
            FROM `search_analytics`.`search_ids`
            WHERE customer = {customer:String}
              AND instance = {instance:String}
              AND first.1 < toDateTime({e1_from:UInt32}, 'UTC')
              AND search_id IN (
              SELECT event_id
              FROM `search_analytics`.`search_events`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND id_sent
                AND sign > 0
                AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
                AND ts < toDateTime({e1_to:UInt32}, 'UTC')
            ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
          )
        )
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
            AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
            AND ts < toDateTime({e1_to:UInt32}, 'UTC')
          ORDER BY search_id, ts, phrase, language, bot, hits
          LIMIT 1 BY search_id
        )
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND bot IN {bots:Array(UInt8)}
          AND hits > 0
          AND search_id != toUUID({no_search:String})
          AND phrase IN {phrases:Array(String)}
          AND search_id NOT IN (
          SELECT search_id
          FROM `search_analytics`.`search_ids`
          WHERE customer = {customer:String}
            AND instance = {instance:String}
            AND first.1 < toDateTime({e1_from:UInt32}, 'UTC')
            AND search_id IN (
            SELECT event_id
            FROM `search_analytics`.`search_events`
            WHERE customer = {customer:String}
              AND instance = {instance:String}
              AND id_sent
              AND sign > 0
              AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
              AND ts < toDateTime({e1_to:UInt32}, 'UTC')
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
          SELECT search_id
          FROM (
            SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot
            FROM (
              SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits
              FROM `search_analytics`.`search_events`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND id_sent
                AND sign > 0
                AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
                AND ts < toDateTime({e1_to:UInt32}, 'UTC')
              ORDER BY search_id, ts, phrase, language, bot, hits
              LIMIT 1 BY search_id
            )
            WHERE customer = {customer:String}
              AND instance = {instance:String}
              AND bot IN {bots:Array(UInt8)}
              AND hits > 0
              AND search_id != toUUID({no_search:String})
              AND phrase IN {phrases:Array(String)}
              AND search_id NOT IN (
              SELECT search_id
              FROM `search_analytics`.`search_ids`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND first.1 < toDateTime({e1_from:UInt32}, 'UTC')
                AND search_id IN (
                SELECT event_id
                FROM `search_analytics`.`search_events`
                WHERE customer = {customer:String}
                  AND instance = {instance:String}
                  AND id_sent
                  AND sign > 0
                  AND ts >= toDateTime({e1_from:UInt32}, 'UTC')
                  AND ts < toDateTime({e1_to:UInt32}, 'UTC')
              ) SETTINGS use_index_for_in_with_subqueries_max_values = 100000
            )
          )
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
  UNION ALL
  SELECT phrase AS p, position, clicks
  FROM `search_analytics`.`engagement_objects_hourly`
  WHERE customer = {customer:String}
    AND instance = {instance:String}
    AND bot IN {bots:Array(UInt8)}
    AND kind = 'position'
    AND phrase IN {phrases:Array(String)}
    AND (hour, version) IN (
    SELECT toDateTime(arrayJoin(range(a.1, a.2, 3600)), 'UTC'), fromUnixTimestamp64Micro(a.3, 'UTC')
    FROM (
      SELECT arrayJoin(
        arrayZip({ahead_from:Array(UInt32)}, {ahead_to:Array(UInt32)}, {ahead_version:Array(Int64)})
      ) AS a
    )
  )
)
GROUP BY p, position
HAVING clicks_n > 0;

-- ====================================================================================================================

-- hits=all (every search, last_hits), order=asc, since=7d (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&hits=all&order=asc
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- hits=all (every search, last_hits), order=asc, since=7d (2/3): SearchTermsRepository.terms
-- GET /search-terms?since=7d&hits=all&order=asc
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
SELECT phrase, count, previous_count, count() OVER () AS total
FROM (
  SELECT phrase, sum(signed) AS count, 0 AS previous_count
  FROM (
    SELECT phrase,
      if(
        (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_phrases_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND (
        (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_phrases_weekly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
ORDER BY count ASC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- hits=all (every search, last_hits), order=asc, since=7d (3/3): SearchTermsRepository.extras
-- GET /search-terms?since=7d&hits=all&order=asc
-- params:
--   bots = [0]
--   customer = "acme"
--   ids = ["97a12b91792dfc29b861d7fdd3c9dc09"]
--   instance = "shop"
--   language = "" (sent, not used)
--   x_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   x_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT phrase,
  maxIf(last_search, dimension = 'search').2 AS last_hits,
  sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
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
      AND ((ts >= toDateTime({x_r0_from:UInt32}, 'UTC') AND ts < toDateTime({x_r0_to:UInt32}, 'UTC')))
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
    AND (dimension = 'search')
    AND 1
    AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    AND term_id IN (
    SELECT unhex(arrayJoin({ids:Array(String)}))
  )
)
GROUP BY phrase;

-- ====================================================================================================================

-- zero-result terms with filters=true, tags=mobile AND bf, compare=previous (1/3): SearchTermsRepository.terms
-- GET /search-terms?since=7d&hits=false&filters=true&tags=mobile AND bf&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   start = 0
--   t0_from = 1773910800 (2026-03-19T09:00:00Z)
--   t0_r0_from = 1773910800 (2026-03-19T09:00:00Z)
--   t0_r0_to = 1774519200 (2026-03-26T10:00:00Z)
--   t0_to = 1774519200 (2026-03-26T10:00:00Z)
--   t1_from = 1774519200 (2026-03-26T10:00:00Z)
--   t1_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   t1_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   t1_to = 1775127600 (2026-04-02T11:00:00Z)
--   tags_wanted = ["mobile","bf"]
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase,
  count,
  previous_count,
  handlers,
  if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled_languages,
  count() OVER () AS total
FROM (
  SELECT phrase, sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count
  FROM (
    SELECT phrase, toInt64(searches) AS signed, 1 AS cur
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
          AND ((ts >= toDateTime({t1_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t1_r0_to:UInt32}, 'UTC')))
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
        AND zero_hits = 1
        AND dimension = 'tag'
        AND value IN {tags_wanted:Array(String)}
        AND value = arrayFirst(t -> has({tags_wanted:Array(String)}, t), tags)
        AND hasAll(tags, {tags_wanted:Array(String)})
        AND (hour >= toDateTime({t1_from:UInt32}, 'UTC') AND hour < toDateTime({t1_to:UInt32}, 'UTC'))
    )
    UNION ALL
    SELECT phrase, toInt64(searches) AS signed, 0 AS cur
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
          AND ((ts >= toDateTime({t0_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t0_r0_to:UInt32}, 'UTC')))
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
        AND zero_hits = 1
        AND dimension = 'tag'
        AND value IN {tags_wanted:Array(String)}
        AND value = arrayFirst(t -> has({tags_wanted:Array(String)}, t), tags)
        AND hasAll(tags, {tags_wanted:Array(String)})
        AND (hour >= toDateTime({t0_from:UInt32}, 'UTC') AND hour < toDateTime({t0_to:UInt32}, 'UTC'))
    )
  )
  GROUP BY phrase
  HAVING count > 0
) AS terms
LEFT JOIN (
  SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
  FROM (
    SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
    FROM (
      SELECT type, id, handled_phrases, language, deleted
      FROM `search_analytics`.`entities`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND kind = 'save'
      ORDER BY type, id, version DESC
      LIMIT 1 BY type, id
    )
    WHERE NOT deleted
  )
  GROUP BY phrase
) AS h USING (phrase)
LEFT JOIN (
  SELECT phrase, arraySort(groupArray(language)) AS languages
  FROM (
    SELECT phrase, language, sum(signed) AS searches
    FROM (
      SELECT phrase,
        language,
        if(
          (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase IN (
        SELECT phrase
        FROM (
          SELECT phrase,
            arraySort(groupUniqArray((type, id))) AS handlers,
            arraySort(groupUniqArray(language)) AS covered
          FROM (
            SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
            FROM (
              SELECT type, id, handled_phrases, language, deleted
              FROM `search_analytics`.`entities`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND kind = 'save'
              ORDER BY type, id, version DESC
              LIMIT 1 BY type, id
            )
            WHERE NOT deleted
          )
          GROUP BY phrase
        )
      )
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase IN (
        SELECT phrase
        FROM (
          SELECT phrase,
            arraySort(groupUniqArray((type, id))) AS handlers,
            arraySort(groupUniqArray(language)) AS covered
          FROM (
            SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
            FROM (
              SELECT type, id, handled_phrases, language, deleted
              FROM `search_analytics`.`entities`
              WHERE customer = {customer:String}
                AND instance = {instance:String}
                AND kind = 'save'
              ORDER BY type, id, version DESC
              LIMIT 1 BY type, id
            )
            WHERE NOT deleted
          )
          GROUP BY phrase
        )
      )
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase)
ORDER BY count DESC, phrase ASC
LIMIT {limit:UInt32} OFFSET {start:UInt32};

-- zero-result terms with filters=true, tags=mobile AND bf, compare=previous (2/3): SearchTermsRepository.languagesOfUnhandled
-- GET /search-terms?since=7d&hits=false&filters=true&tags=mobile AND bf&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrases = ["summer dress"]
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT phrase, arraySort(groupArray(language)) AS languages
FROM (
  SELECT phrase, language, sum(signed) AS searches
  FROM (
    SELECT phrase,
      language,
      if(
        (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
        -toInt64(searches),
        toInt64(searches)
      ) AS signed,
      1 AS cur
    FROM `search_analytics`.`search_terms_hourly`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND phrase IN {phrases:Array(String)}
      AND (
        (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
        OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
      )
    UNION ALL
    SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
    FROM `search_analytics`.`search_terms_daily`
    WHERE customer = {customer:String}
      AND instance = {instance:String}
      AND bot IN {bots:Array(UInt8)}
      AND zero_hits = 1
      AND phrase IN {phrases:Array(String)}
      AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
  )
  GROUP BY phrase, language
  HAVING searches > 0
)
GROUP BY phrase;

-- zero-result terms with filters=true, tags=mobile AND bf, compare=previous (3/3): SearchTermsRepository.extras
-- GET /search-terms?since=7d&hits=false&filters=true&tags=mobile AND bf&compare=previous
-- params:
--   bots = [0]
--   customer = "acme"
--   ids = ["97a12b91792dfc29b861d7fdd3c9dc09"]
--   instance = "shop"
--   language = "" (sent, not used)
--   tags_wanted = ["mobile","bf"]
--   x_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   x_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT phrase,
  maxIf(last_search, dimension = 'search').2 AS last_hits,
  sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
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
      AND ((ts >= toDateTime({x_r0_from:UInt32}, 'UTC') AND ts < toDateTime({x_r0_to:UInt32}, 'UTC')))
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
    AND ((dimension = 'filter_set' AND zero_hits))
    AND hasAll(tags, {tags_wanted:Array(String)})
    AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    AND term_id IN (
    SELECT unhex(arrayJoin({ids:Array(String)}))
  )
)
GROUP BY phrase;

-- ====================================================================================================================

-- CSV, hits=false, filters=true, engagement=true (last_hits and with_filters after count) (1/3): SearchTermsRepository.newestEvent
-- GET /search-terms?since=7d&hits=false&filters=true&engagement=true&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest
FROM `search_analytics`.`search_totals_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND zero_hits = 1
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'));

-- CSV, hits=false, filters=true, engagement=true (last_hits and with_filters after count) (2/3): SearchTermsRepository.total
-- GET /search-terms?since=7d&hits=false&filters=true&engagement=true&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
SELECT count() AS total
FROM (
  SELECT phrase,
    count,
    previous_count,
    handlers,
    if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled_languages,
    count() OVER () AS total
  FROM (
    SELECT phrase, sum(signed) AS count, 0 AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  LEFT JOIN (
    SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
    FROM (
      SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
      FROM (
        SELECT type, id, handled_phrases, language, deleted
        FROM `search_analytics`.`entities`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND kind = 'save'
        ORDER BY type, id, version DESC
        LIMIT 1 BY type, id
      )
      WHERE NOT deleted
    )
    GROUP BY phrase
  ) AS h USING (phrase)
  LEFT JOIN (
    SELECT phrase, arraySort(groupArray(language)) AS languages
    FROM (
      SELECT phrase, language, sum(signed) AS searches
      FROM (
        SELECT phrase,
          language,
          if(
            (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
            -toInt64(searches),
            toInt64(searches)
          ) AS signed,
          1 AS cur
        FROM `search_analytics`.`search_terms_hourly`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND bot IN {bots:Array(UInt8)}
          AND zero_hits = 1
          AND phrase IN (
          SELECT phrase
          FROM (
            SELECT phrase,
              arraySort(groupUniqArray((type, id))) AS handlers,
              arraySort(groupUniqArray(language)) AS covered
            FROM (
              SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
              FROM (
                SELECT type, id, handled_phrases, language, deleted
                FROM `search_analytics`.`entities`
                WHERE customer = {customer:String}
                  AND instance = {instance:String}
                  AND kind = 'save'
                ORDER BY type, id, version DESC
                LIMIT 1 BY type, id
              )
              WHERE NOT deleted
            )
            GROUP BY phrase
          )
        )
          AND (
            (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
            OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
          )
        UNION ALL
        SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
        FROM `search_analytics`.`search_terms_daily`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND bot IN {bots:Array(UInt8)}
          AND zero_hits = 1
          AND phrase IN (
          SELECT phrase
          FROM (
            SELECT phrase,
              arraySort(groupUniqArray((type, id))) AS handlers,
              arraySort(groupUniqArray(language)) AS covered
            FROM (
              SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
              FROM (
                SELECT type, id, handled_phrases, language, deleted
                FROM `search_analytics`.`entities`
                WHERE customer = {customer:String}
                  AND instance = {instance:String}
                  AND kind = 'save'
                ORDER BY type, id, version DESC
                LIMIT 1 BY type, id
              )
              WHERE NOT deleted
            )
            GROUP BY phrase
          )
        )
          AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
      )
      GROUP BY phrase, language
      HAVING searches > 0
    )
    GROUP BY phrase
  ) AS l USING (phrase)
  ORDER BY count DESC, phrase ASC
);

-- CSV, hits=false, filters=true, engagement=true (last_hits and with_filters after count) (3/3): SearchTermsRepository.csvLines
-- GET /search-terms?since=7d&hits=false&filters=true&engagement=true&format=csv
-- params:
--   bots = [0]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 100000
--   no_search = "00000000-0000-0000-0000-000000000000"
--   start = 0
--   w1_d0_from = "2026-03-27"
--   w1_d0_to = "2026-03-30"
--   w1_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1_m0_to = 1775433600 (2026-04-06T00:00:00Z)
--   w1_week0_from = "2026-03-30"
--   w1_week0_to = "2026-04-06"
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-03"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_m0_from = 1775127600 (2026-04-02T11:00:00Z)
--   w1l_m0_to = 1775174400 (2026-04-03T00:00:00Z)
--   x_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   x_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   x_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT concat(
  if(
    match(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '[,"\r\n]'),
    concat('"', replaceAll(if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase), '"', '""'), '"'),
    if(match(phrase, '^[=+@\t\r-]'), concat('\'', phrase), phrase)
  ),
  ',',
  toString(count),
  ',',
  toString(last_hits),
  ',',
  toString(with_filters),
  ',',
  if(notEmpty(handlers) AND empty(unhandled_languages), 'true', 'false'),
  ',',
  if(
    match(
      if(
        match(arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|'), '^[=+@\t\r-]'),
        concat('\'', arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')),
        arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')
      ),
      '[,"\r\n]'
    ),
    concat(
      '"',
      replaceAll(
        if(
          match(arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|'), '^[=+@\t\r-]'),
          concat('\'', arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')),
          arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')
        ),
        '"',
        '""'
      ),
      '"'
    ),
    if(
      match(arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|'), '^[=+@\t\r-]'),
      concat('\'', arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')),
      arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')
    )
  ),
  ',',
  toString(tracked),
  ',',
  toString(clicked),
  ',',
  if(tracked = 0, '', toString(clicked / tracked)),
  ',',
  toString(clicks_n),
  ',',
  if(clicks_n = 0, '', toString(pos_sum / clicks_n)),
  ',',
  toString(converted),
  ',',
  if(tracked = 0, '', toString(converted / tracked)),
  ',',
  arrayStringConcat(arrayMap((c, v) -> concat(c, ':', v), rev_cur, rev_val), '|'),
  ',',
  toString(carted),
  ',',
  if(tracked = 0, '', toString(carted / tracked)),
  ',',
  toString(purchased),
  ',',
  if(tracked = 0, '', toString(purchased / tracked)),
  ',',
  arrayStringConcat(arrayMap((c, v) -> concat(c, ':', v), pur_cur, pur_val), '|'),
  '\r'
)
FROM (
  SELECT phrase,
    count,
    previous_count,
    handlers,
    if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled_languages,
    count() OVER () AS total,
    tracked,
    clicked,
    clicks_n,
    pos_sum,
    converted,
    rev_cur,
    rev_val,
    carted,
    purchased,
    pur_cur,
    pur_val,
    last_hits,
    with_filters
  FROM (
    SELECT phrase, sum(signed) AS count, 0 AS previous_count
    FROM (
      SELECT phrase,
        if(
          (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC')),
          -toInt64(searches),
          toInt64(searches)
        ) AS signed,
        1 AS cur
      FROM `search_analytics`.`search_phrases_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND (
          (hour >= toDateTime({w1_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1_m0_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND ((day >= {w1_d0_from:Date} AND day < {w1_d0_to:Date}))
      UNION ALL
      SELECT phrase, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_phrases_weekly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND (week >= {w1_week0_from:Date} AND week < {w1_week0_to:Date})
    )
    GROUP BY phrase
    HAVING count > 0
  ) AS terms
  LEFT JOIN (
    SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered
    FROM (
      SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
      FROM (
        SELECT type, id, handled_phrases, language, deleted
        FROM `search_analytics`.`entities`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND kind = 'save'
        ORDER BY type, id, version DESC
        LIMIT 1 BY type, id
      )
      WHERE NOT deleted
    )
    GROUP BY phrase
  ) AS h USING (phrase)
  LEFT JOIN (
    SELECT phrase, arraySort(groupArray(language)) AS languages
    FROM (
      SELECT phrase, language, sum(signed) AS searches
      FROM (
        SELECT phrase,
          language,
          if(
            (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC')),
            -toInt64(searches),
            toInt64(searches)
          ) AS signed,
          1 AS cur
        FROM `search_analytics`.`search_terms_hourly`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND bot IN {bots:Array(UInt8)}
          AND zero_hits = 1
          AND phrase IN (
          SELECT phrase
          FROM (
            SELECT phrase,
              arraySort(groupUniqArray((type, id))) AS handlers,
              arraySort(groupUniqArray(language)) AS covered
            FROM (
              SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
              FROM (
                SELECT type, id, handled_phrases, language, deleted
                FROM `search_analytics`.`entities`
                WHERE customer = {customer:String}
                  AND instance = {instance:String}
                  AND kind = 'save'
                ORDER BY type, id, version DESC
                LIMIT 1 BY type, id
              )
              WHERE NOT deleted
            )
            GROUP BY phrase
          )
        )
          AND (
            (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
            OR (hour >= toDateTime({w1l_m0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_m0_to:UInt32}, 'UTC'))
          )
        UNION ALL
        SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
        FROM `search_analytics`.`search_terms_daily`
        WHERE customer = {customer:String}
          AND instance = {instance:String}
          AND bot IN {bots:Array(UInt8)}
          AND zero_hits = 1
          AND phrase IN (
          SELECT phrase
          FROM (
            SELECT phrase,
              arraySort(groupUniqArray((type, id))) AS handlers,
              arraySort(groupUniqArray(language)) AS covered
            FROM (
              SELECT type, id, language, arrayJoin(handled_phrases) AS phrase
              FROM (
                SELECT type, id, handled_phrases, language, deleted
                FROM `search_analytics`.`entities`
                WHERE customer = {customer:String}
                  AND instance = {instance:String}
                  AND kind = 'save'
                ORDER BY type, id, version DESC
                LIMIT 1 BY type, id
              )
              WHERE NOT deleted
            )
            GROUP BY phrase
          )
        )
          AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
      )
      GROUP BY phrase, language
      HAVING searches > 0
    )
    GROUP BY phrase
  ) AS l USING (phrase)
  LEFT JOIN (
    SELECT phrase,
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
    GROUP BY phrase
  ) AS e USING (phrase)
  LEFT JOIN (
    SELECT phrase,
      maxIf(last_search, dimension = 'search').2 AS last_hits,
      sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
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
          AND ((ts >= toDateTime({x_r0_from:UInt32}, 'UTC') AND ts < toDateTime({x_r0_to:UInt32}, 'UTC')))
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
        AND (dimension = 'search' OR (dimension = 'filter_set' AND zero_hits))
        AND 1
        AND (hour >= toDateTime({x_from:UInt32}, 'UTC') AND hour < toDateTime({x_to:UInt32}, 'UTC'))
    )
    GROUP BY phrase
  ) AS x USING (phrase)
  ORDER BY count DESC, phrase ASC
)
LIMIT {limit:UInt32} OFFSET {start:UInt32}
FORMAT TSVRaw;
