-- TermDetailRepository: GET /search-terms/{id}
-- Every statement the repository sends for each case, at now = 2026-04-02T10:20:00.000Z,
-- customer acme, instance shop. Only whitespace is changed from what is sent; the `;` is added here.
-- Written by apps/query/src/term-detail/term-detail.repository.sql.spec.ts; do not edit by hand.
-- After an intended change: UPDATE_SQL=1 npx jest apps/query/src/term-detail/term-detail.repository.sql.spec.ts

-- ====================================================================================================================

-- default window (since=1d), UTC (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- default window (since=1d), UTC (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- default window (since=1d), UTC (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrase = "summer dress"
--   w1l_h0_from = 1775037600 (2026-04-01T10:00:00Z)
--   w1l_h0_to = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT handlers, if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled
FROM (
  SELECT {phrase:String} AS phrase
) AS t
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
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase);

-- default window (since=1d), UTC (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   t_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- since=7d, Europe/Berlin (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- since=7d, Europe/Berlin (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- since=7d, Europe/Berlin (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrase = "summer dress"
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-02"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT handlers, if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled
FROM (
  SELECT {phrase:String} AS phrase
) AS t
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
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase);

-- since=7d, Europe/Berlin (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   t_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- since=30d, interval=day (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&interval=day
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- since=30d, interval=day (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&interval=day
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- since=30d, interval=day (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&interval=day
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrase = "summer dress"
--   w1l_d0_from = "2026-03-04"
--   w1l_d0_to = "2026-04-02"
--   w1l_h0_from = 1772532000 (2026-03-03T10:00:00Z)
--   w1l_h0_to = 1772582400 (2026-03-04T00:00:00Z)
--   w1l_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT handlers, if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled
FROM (
  SELECT {phrase:String} AS phrase
) AS t
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
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase);

-- since=30d, interval=day (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&interval=day
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   t_r0_from = 1772532000 (2026-03-03T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- from/to whole days, UTC (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1773964800 (2026-03-20T00:00:00Z)
--   w_to = 1774569600 (2026-03-27T00:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- from/to whole days, UTC (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   w_from = 1773964800 (2026-03-20T00:00:00Z)
--   w_to = 1774569600 (2026-03-27T00:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- from/to whole days, UTC (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrase = "summer dress"
--   w1l_d0_from = "2026-03-20"
--   w1l_d0_to = "2026-03-27"
SELECT handlers, if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled
FROM (
  SELECT {phrase:String} AS phrase
) AS t
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
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase);

-- from/to whole days, UTC (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-20&to=2026-03-27
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   t_r0_from = 1773964800 (2026-03-20T00:00:00Z)
--   t_r0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w_from = 1773964800 (2026-03-20T00:00:00Z)
--   w_to = 1774569600 (2026-03-27T00:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- from/to whole days, Europe/Berlin (across the switch to summer time) (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- from/to whole days, Europe/Berlin (across the switch to summer time) (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- from/to whole days, Europe/Berlin (across the switch to summer time) (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrase = "summer dress"
--   w1l_d0_from = "2026-03-26"
--   w1l_d0_to = "2026-04-02"
--   w1l_h0_from = 1774479600 (2026-03-25T23:00:00Z)
--   w1l_h0_to = 1774483200 (2026-03-26T00:00:00Z)
--   w1l_m0_from = 1775080800 (2026-04-01T22:00:00Z)
--   w1l_m0_to = 1775088000 (2026-04-02T00:00:00Z)
SELECT handlers, if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled
FROM (
  SELECT {phrase:String} AS phrase
) AS t
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
        AND phrase = {phrase:String}
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
        AND phrase = {phrase:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase);

-- from/to whole days, Europe/Berlin (across the switch to summer time) (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?from=2026-03-26&to=2026-04-02&tz=Europe/Berlin
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   t_r0_from = 1774479600 (2026-03-25T23:00:00Z)
--   t_r0_to = 1775080800 (2026-04-01T22:00:00Z)
--   w_from = 1774479600 (2026-03-25T23:00:00Z)
--   w_to = 1775080800 (2026-04-01T22:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- language=de (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- language=de (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- language=de (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de
-- params:
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   phrase = "summer dress"
SELECT handlers
FROM (
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
)
WHERE phrase = {phrase:String};

-- language=de (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   t_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- with bots, language=de, Europe/Berlin (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&tz=Europe/Berlin&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- with bots, language=de, Europe/Berlin (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&tz=Europe/Berlin&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- with bots, language=de, Europe/Berlin (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&tz=Europe/Berlin&language=de&includeBotTraffic=true
-- params:
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   phrase = "summer dress"
SELECT handlers
FROM (
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
)
WHERE phrase = {phrase:String};

-- with bots, language=de, Europe/Berlin (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=30d&tz=Europe/Berlin&language=de&includeBotTraffic=true
-- params:
--   bots = [0,1]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   t_r0_from = 1772532000 (2026-03-03T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   w_from = 1772532000 (2026-03-03T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- engagement=true, since=7d, language=de (1/6): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- engagement=true, since=7d, language=de (2/6): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND language = {language:String}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- engagement=true, since=7d, language=de (3/6): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de&engagement=true
-- params:
--   customer = "acme"
--   instance = "shop"
--   language = "de"
--   phrase = "summer dress"
SELECT handlers
FROM (
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
)
WHERE phrase = {phrase:String};

-- engagement=true, since=7d, language=de (4/6): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "de"
--   limit = 10
--   t_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- engagement=true, since=7d, language=de (5/6): EngagementRepository.term
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de&engagement=true
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

-- engagement=true, since=7d, language=de (6/6): EngagementRepository.term
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&language=de&engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   e0_from = 1774519200 (2026-03-26T10:00:00Z)
--   e0_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "de"
--   last = 21
--   limit = 31
--   no_search = "00000000-0000-0000-0000-000000000000"
--   phrases = ["summer dress"]
SELECT kind, position, object_id, sum(clicks) AS clicks_n, sum(conversions) AS conversions_n
FROM (
  SELECT toString(kind) AS kind, position, object_id, clicks, conversions
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
)
GROUP BY kind, position, object_id
HAVING clicks_n > 0
ORDER BY kind = 'object', clicks_n DESC, object_id ASC
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (1/8): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  toUnixTimestamp64Milli(max(last_ts)) AS newest
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY hour_ms
HAVING searches_n > 0;

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (2/8): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (3/8): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrase = "summer dress"
--   w1l_h0_from = 1775037600 (2026-04-01T10:00:00Z)
--   w1l_h0_to = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT handlers, if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled
FROM (
  SELECT {phrase:String} AS phrase
) AS t
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
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase);

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (4/8): DimensionRepository.plan
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
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

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (5/8): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   t_ahead_from = [1775124000]
--   t_ahead_to = [1775127600]
--   t_ahead_version = [null]
--   t_r0_from = 1775037600 (2026-04-01T10:00:00Z)
--   t_r0_to = 1775124000 (2026-04-02T10:00:00Z)
--   w_from = 1775037600 (2026-04-01T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND 1
    AND (hour, version) IN (
    SELECT toDateTime(arrayJoin(range(a.1, a.2, 3600)), 'UTC'), fromUnixTimestamp64Micro(a.3, 'UTC')
    FROM (
      SELECT arrayJoin(
        arrayZip({t_ahead_from:Array(UInt32)}, {t_ahead_to:Array(UInt32)}, {t_ahead_version:Array(Int64)})
      ) AS a
    )
  )
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (6/8): EngagementRepository.plan
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
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

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (7/8): EngagementRepository.term
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
-- params:
--   ahead_from = [1775041200]
--   ahead_to = [1775124000]
--   ahead_version = [1775120400000007]
--   bots = [0]
--   customer = "acme"
--   e0_from = 1775037600 (2026-04-01T10:00:00Z)
--   e0_to = 1775041200 (2026-04-01T11:00:00Z)
--   e1_from = 1775124000 (2026-04-02T10:00:00Z)
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

-- engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw (8/8): EngagementRepository.term
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?engagement=true
-- params:
--   ahead_from = [1775041200]
--   ahead_to = [1775124000]
--   ahead_version = [1775120400000007]
--   bots = [0]
--   customer = "acme"
--   e0_from = 1775037600 (2026-04-01T10:00:00Z)
--   e0_to = 1775041200 (2026-04-01T11:00:00Z)
--   e1_from = 1775124000 (2026-04-02T10:00:00Z)
--   e1_to = 1775127600 (2026-04-02T11:00:00Z)
--   instance = "shop"
--   language = "" (sent, not used)
--   last = 21
--   limit = 31
--   no_search = "00000000-0000-0000-0000-000000000000"
--   phrases = ["summer dress"]
SELECT kind, position, object_id, sum(clicks) AS clicks_n, sum(conversions) AS conversions_n
FROM (
  SELECT toString(kind) AS kind, position, object_id, clicks, conversions
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
  UNION ALL
  SELECT toString(kind) AS kind, position, object_id, clicks, conversions
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
  UNION ALL
  SELECT toString(kind) AS kind, position, object_id, clicks, conversions
  FROM `search_analytics`.`engagement_objects_hourly`
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
GROUP BY kind, position, object_id
HAVING clicks_n > 0
ORDER BY kind = 'object', clicks_n DESC, object_id ASC
LIMIT {limit:UInt32};

-- ====================================================================================================================

-- tags=mobile OR bf, since=7d (1/4): TermDetailRepository.hours
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tags=mobile OR bf
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   t_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   tags_wanted = ["mobile","bf"]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT any(phrase) AS term,
  toUnixTimestamp(hour) * 1000 AS hour_ms,
  sum(searches) AS searches_n,
  sumIf(searches, zero_hits) AS zero_n,
  0 AS newest
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'search'
    AND hasAny(tags, {tags_wanted:Array(String)})
)
WHERE 1
GROUP BY hour_ms
HAVING searches_n > 0;

-- tags=mobile OR bf, since=7d (2/4): TermDetailRepository.variants
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tags=mobile OR bf
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT raw_phrase AS spelling, sum(searches) AS n
FROM `search_analytics`.`search_term_spellings_hourly`
WHERE customer = {customer:String}
  AND instance = {instance:String}
  AND bot IN {bots:Array(UInt8)}
  AND term_id = unhex({id:String})
  AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
GROUP BY raw_phrase
ORDER BY n DESC, raw_phrase ASC
LIMIT {limit:UInt32};

-- tags=mobile OR bf, since=7d (3/4): TermDetailRepository.handlers
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tags=mobile OR bf
-- params:
--   bots = [0]
--   customer = "acme"
--   instance = "shop"
--   language = "" (sent, not used)
--   phrase = "summer dress"
--   w1l_d0_from = "2026-03-27"
--   w1l_d0_to = "2026-04-02"
--   w1l_h0_from = 1774519200 (2026-03-26T10:00:00Z)
--   w1l_h0_to = 1774569600 (2026-03-27T00:00:00Z)
--   w1l_h1_from = 1775088000 (2026-04-02T00:00:00Z)
--   w1l_h1_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT handlers, if(has(covered, ''), [], arrayFilter(l -> NOT has(covered, l), languages)) AS unhandled
FROM (
  SELECT {phrase:String} AS phrase
) AS t
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
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_hourly`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND (
          (hour >= toDateTime({w1l_h0_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h0_to:UInt32}, 'UTC'))
          OR (hour >= toDateTime({w1l_h1_from:UInt32}, 'UTC') AND hour < toDateTime({w1l_h1_to:UInt32}, 'UTC'))
        )
      UNION ALL
      SELECT phrase, language, toInt64(searches) AS signed, 1 AS cur
      FROM `search_analytics`.`search_terms_daily`
      WHERE customer = {customer:String}
        AND instance = {instance:String}
        AND bot IN {bots:Array(UInt8)}
        AND zero_hits = 1
        AND phrase = {phrase:String}
        AND ((day >= {w1l_d0_from:Date} AND day < {w1l_d0_to:Date}))
    )
    GROUP BY phrase, language
    HAVING searches > 0
  )
  GROUP BY phrase
) AS l USING (phrase);

-- tags=mobile OR bf, since=7d (4/4): TermDetailRepository.filters
-- GET /search-terms/892e95f4685a6d36bdb06f63b12becbb?since=7d&tags=mobile OR bf
-- params:
--   bots = [0]
--   customer = "acme"
--   id = "892e95f4685a6d36bdb06f63b12becbb"
--   instance = "shop"
--   language = "" (sent, not used)
--   limit = 10
--   t_r0_from = 1774519200 (2026-03-26T10:00:00Z)
--   t_r0_to = 1775127600 (2026-04-02T11:00:00Z)
--   tags_wanted = ["mobile","bf"]
--   w_from = 1774519200 (2026-03-26T10:00:00Z)
--   w_to = 1775127600 (2026-04-02T11:00:00Z)
SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
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
      AND ((ts >= toDateTime({t_r0_from:UInt32}, 'UTC') AND ts < toDateTime({t_r0_to:UInt32}, 'UTC')))
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
    AND term_id = unhex({id:String})
    AND (hour >= toDateTime({w_from:UInt32}, 'UTC') AND hour < toDateTime({w_to:UInt32}, 'UTC'))
    AND dimension = 'filter_value'
    AND hasAny(tags, {tags_wanted:Array(String)})
)
WHERE 1
GROUP BY attribute, operator, value
HAVING s > 0
ORDER BY s DESC, attribute, operator, value
LIMIT {limit:UInt32};
