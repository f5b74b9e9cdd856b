import { LEGACY_SECRET, basicHeader, hmacHeaders, http, nonce, startApp, type TestApp } from '../support/test-app';
import { storedCounts } from '../support/storage';

/** Attacks on small holes found by a security review, each against the in-process app over real HTTP. */
describe('small security holes (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe('CSV formula injection', () => {
    // Phrases a spreadsheet would run as formulas; normalising keeps their first character (a leading tab or CR is
    // trimmed, so "\t=x" arrives as "=x").
    const phrases = ['=hyperlink("http://evil.example","x")', '+1+2', '-2+3', '@sum(1,2)', '\t=tab', 'plain shoes', 'a=b'];

    it('stores the signed events exactly once, even when the request is replayed', async () => {
      const before = await storedCounts(t);
      const body = JSON.stringify({ events: phrases.map((phrase) => ({ phrase, language: 'fx', hits: 0 })) });
      const headers = hmacHeaders(LEGACY_SECRET, body, nonce());
      const sent = await http<{ accepted: number; rejected: unknown[] }>(`${t.url}/events`, { method: 'POST', headers, body });
      expect(sent.status).toBe(202);
      expect(sent.body).toEqual({ accepted: phrases.length, rejected: [] });
      const replayed = await http(`${t.url}/events`, { method: 'POST', headers, body });
      expect(replayed.status).toBe(401);
      const after = await storedCounts(t);
      expect(after.events - before.events).toBe(phrases.length);
      expect(after.rollup - before.rollup).toBe(phrases.length);
    });

    it("prefixes every text cell starting with = + - @ with ' in the CSV, and leaves JSON as stored", async () => {
      const csv = await http<string>(`${t.url}/search-terms?language=fx&hits=false&format=csv`, { headers: basicHeader() });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = csv.body.split('\r\n');
      expect(lines[0]).toBe('search_phrase,count,handled,handlers');
      expect(lines.slice(1).sort()).toEqual(
        [
          '"\'=hyperlink(""http://evil.example"",""x"")",1,false,',
          "'+1+2,1,false,",
          "'-2+3,1,false,",
          '"\'@sum(1,2)",1,false,',
          "'=tab,1,false,",
          'plain shoes,1,false,',
          'a=b,1,false,',
          '',
        ].sort(),
      );
      const json = await http<Array<{ search_phrase: string }>>(`${t.url}/search-terms?language=fx&hits=false&_end=100`, {
        headers: basicHeader(),
      });
      expect(json.body.map((x) => x.search_phrase).sort()).toEqual(
        ['=hyperlink("http://evil.example","x")', '+1+2', '-2+3', '@sum(1,2)', '=tab', 'plain shoes', 'a=b'].sort(),
      );
    });
  });
});
