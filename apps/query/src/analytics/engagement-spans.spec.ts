import { spanPlan, type Span } from './engagement-spans';
import { HOUR } from './window';

const T0 = Date.UTC(2026, 10, 1);
const h = (n: number) => T0 + n * HOUR;

/** A span of hours [0, 100), at version 1 up to hour 50 and 2 after. */
const SPAN: Span = {
  version: 9,
  from: h(0),
  to: h(100),
  runs: [
    { from: h(0), to: h(50), version: 1 },
    { from: h(50), to: h(100), version: 2 },
  ],
};

/** The plan of hours [0, 110): the span's versions, then hours 100-104 at version 3, 105-109 raw. */
const CURRENT = {
  ahead: [
    { from: h(0), to: h(50), version: 1 },
    { from: h(50), to: h(100), version: 2 },
    { from: h(100), to: h(105), version: 3 },
  ],
  raw: [{ from: h(105), to: h(110) }],
};

describe('spanPlan: how a window of every phrase reads a span', () => {
  it('reads the span for its hours in the window, subtracts those before it, and reads the later hours as planned', () => {
    expect(spanPlan({ from: h(10), to: h(110) }, SPAN, CURRENT)).toEqual({
      ahead: [{ from: h(100), to: h(105), version: 3 }],
      raw: [{ from: h(105), to: h(110) }],
      span: { version: 9, minus: [{ from: h(0), to: h(10), version: 1 }] },
    });
  });

  it("reads an hour computed again since the span at its new version, and subtracts it at the span's", () => {
    const current = {
      ahead: [
        { from: h(0), to: h(50), version: 1 },
        { from: h(50), to: h(60), version: 2 },
        { from: h(60), to: h(61), version: 7 },
        { from: h(61), to: h(100), version: 2 },
      ],
      raw: [],
    };
    expect(spanPlan({ from: h(0), to: h(100) }, SPAN, current)).toEqual({
      ahead: [{ from: h(60), to: h(61), version: 7 }],
      raw: [],
      span: { version: 9, minus: [{ from: h(60), to: h(61), version: 2 }] },
    });
  });

  it('an hour of the span no longer computed ahead is read raw and subtracted', () => {
    const current = {
      ahead: [
        { from: h(0), to: h(50), version: 1 },
        { from: h(51), to: h(100), version: 2 },
      ],
      raw: [{ from: h(50), to: h(51) }],
    };
    expect(spanPlan({ from: h(0), to: h(100) }, SPAN, current)).toEqual({
      ahead: [],
      raw: [{ from: h(50), to: h(51) }],
      span: { version: 9, minus: [{ from: h(50), to: h(51), version: 2 }] },
    });
  });

  it('reads the window without the span when the span would cost more than it saves, unless always', () => {
    const window = { from: h(90), to: h(110) };
    const plain = { ahead: [{ from: h(90), to: h(100), version: 2 }, CURRENT.ahead[2]], raw: CURRENT.raw };
    expect(spanPlan(window, SPAN, CURRENT)).toEqual(plain);
    expect(spanPlan(window, SPAN, CURRENT, true)).toEqual({
      ahead: [{ from: h(100), to: h(105), version: 3 }],
      raw: [{ from: h(105), to: h(110) }],
      span: {
        version: 9,
        minus: [
          { from: h(0), to: h(50), version: 1 },
          { from: h(50), to: h(90), version: 2 },
        ],
      },
    });
  });

  it('without a span, the window as planned', () => {
    expect(spanPlan({ from: h(100), to: h(110) }, undefined, CURRENT)).toEqual({
      ahead: [{ from: h(100), to: h(105), version: 3 }],
      raw: [{ from: h(105), to: h(110) }],
    });
  });
});
