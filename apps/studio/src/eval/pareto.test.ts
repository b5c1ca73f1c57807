import { dominates, frontSteps, oraclePoint, paretoFront, routerCurvePoints, type ParetoPoint } from './pareto';

const ids = (points: readonly ParetoPoint[]) => points.map((p) => p.id);

describe('paretoFront', () => {
  it('keeps the non-dominated points, in cost order', () => {
    const points: ParetoPoint[] = [
      { id: 'expensive-best', cost: 100, quality: 0.9 },
      { id: 'cheap-weak', cost: 10, quality: 0.3 },
      { id: 'dominated', cost: 50, quality: 0.3 },
      { id: 'middle', cost: 40, quality: 0.6 },
      { id: 'costly-worse', cost: 120, quality: 0.8 },
    ];
    expect(ids(paretoFront(points))).toEqual(['cheap-weak', 'middle', 'expensive-best']);
  });

  it('drops a point that equals another on one axis and is worse on the other', () => {
    expect(ids(paretoFront([{ id: 'a', cost: 5, quality: 0.5 }, { id: 'b', cost: 5, quality: 0.4 }]))).toEqual(['a']);
    expect(ids(paretoFront([{ id: 'a', cost: 5, quality: 0.5 }, { id: 'b', cost: 6, quality: 0.5 }]))).toEqual(['a']);
  });

  it('keeps both points of an exact tie, ordered by id', () => {
    const front = paretoFront([
      { id: 'zeta', cost: 5, quality: 0.5 },
      { id: 'alpha', cost: 5, quality: 0.5 },
      { id: 'beaten', cost: 6, quality: 0.4 },
    ]);
    expect(ids(front)).toEqual(['alpha', 'zeta']);
  });

  it('a single point is its own front; none gives an empty front', () => {
    expect(ids(paretoFront([{ id: 'only', cost: 3, quality: 0 }]))).toEqual(['only']);
    expect(paretoFront([])).toEqual([]);
  });

  it('leaves out points with a missing cost or quality', () => {
    const front = paretoFront([
      { id: 'nan', cost: Number.NaN, quality: 1 },
      { id: 'inf', cost: 1, quality: Number.POSITIVE_INFINITY },
      { id: 'ok', cost: 10, quality: 0.1 },
    ]);
    expect(ids(front)).toEqual(['ok']);
  });

  it('keeps the caller’s own fields on the members', () => {
    const [member] = paretoFront([{ id: 'x', cost: 1, quality: 1, label: 'X' }]);
    expect(member?.label).toBe('X');
  });

  it('dominates is strict', () => {
    const p = { id: 'p', cost: 1, quality: 1 };
    expect(dominates(p, { ...p, id: 'q' })).toBe(false);
    expect(dominates(p, { id: 'q', cost: 2, quality: 1 })).toBe(true);
    expect(dominates({ id: 'q', cost: 2, quality: 1 }, p)).toBe(false);
  });
});

describe('paretoFront on a real eval (hotpotqa-dev, 30 questions, offline model)', () => {
  // Per-question means from the summary.json of
  // `multihop eval --workflows par2-rag,opera,single-turn-rag,mao-arag,hera --dataset hotpotqa-dev --limit 30`.
  const summary = {
    'par2-rag': { correctness: 0.2, em: 0.16666666666666666, f1: 0.21174603174603177, tokens: 8151.433333333333, llm_calls: 5.433333333333334 },
    opera: { correctness: 0.2, em: 0.16666666666666666, f1: 0.20285714285714285, tokens: 2074, llm_calls: 4.233333333333333 },
    'single-turn-rag': { correctness: 0.16666666666666666, em: 0.1, f1: 0.16952380952380955, tokens: 851.7333333333333, llm_calls: 1 },
    'mao-arag': { correctness: 0.16666666666666666, em: 0.13333333333333333, f1: 0.20349206349206347, tokens: 2440.233333333333, llm_calls: 5.8 },
    hera: { correctness: 0.16666666666666666, em: 0.13333333333333333, f1: 0.20349206349206347, tokens: 3614.1666666666665, llm_calls: 6.7 },
  };
  type Row = (typeof summary)['opera'];
  const front = (cost: keyof Row, quality: keyof Row) =>
    ids(paretoFront(Object.entries(summary).map(([id, w]) => ({ id, cost: w[cost], quality: w[quality] }))));

  it('correctness against tokens: single-turn RAG, then OPERA (PAR²-RAG ties OPERA on quality at four times the tokens)', () => {
    expect(front('tokens', 'correctness')).toEqual(['single-turn-rag', 'opera']);
  });

  it('correctness against LLM calls: the same two', () => {
    expect(front('llm_calls', 'correctness')).toEqual(['single-turn-rag', 'opera']);
  });

  it('F1 against tokens: HERA ties MAO-ARAG on F1 with more tokens, so only MAO-ARAG is on the front', () => {
    expect(front('tokens', 'f1')).toEqual(['single-turn-rag', 'opera', 'mao-arag', 'par2-rag']);
  });

  it('EM against tokens', () => {
    expect(front('tokens', 'em')).toEqual(['single-turn-rag', 'opera']);
  });
});

describe('frontSteps', () => {
  it('runs the last level on to the right edge', () => {
    const steps = frontSteps(
      [
        { id: 'a', cost: 1, quality: 0.1 },
        { id: 'b', cost: 3, quality: 0.4 },
      ],
      10,
    );
    expect(steps).toEqual([
      { cost: 1, quality: 0.1 },
      { cost: 3, quality: 0.4 },
      { cost: 10, quality: 0.4 },
    ]);
  });

  it('adds nothing when the last member is the rightmost point', () => {
    expect(frontSteps([{ id: 'a', cost: 5, quality: 1 }], 5)).toEqual([{ cost: 5, quality: 1 }]);
    expect(frontSteps([], 5)).toEqual([]);
  });
});

describe('oraclePoint', () => {
  const oracle = { tokens: 479, llm_calls: 2.5, correctness: 0.71, em: 0.6, f1: 0.75 };
  it('puts a router eval\'s oracle on the chosen axes', () => {
    expect(oraclePoint({ oracle }, 'tokens', 'correctness')).toEqual({ cost: 479, quality: 0.71 });
    expect(oraclePoint({ oracle }, 'llm_calls', 'f1')).toEqual({ cost: 2.5, quality: 0.75 });
  });
  it('has none without a router, or without the quality figure (an unjudged eval)', () => {
    expect(oraclePoint({}, 'tokens', 'em')).toBeNull();
    expect(oraclePoint({ oracle: { ...oracle, correctness: null } }, 'tokens', 'correctness')).toBeNull();
  });
});

describe('routerCurvePoints', () => {
  const point = (lambda: number, quality: number, tokens: number, routed_with = false) => ({ lambda, routed_with, quality, em: quality / 2, f1: quality / 3, tokens, llm_calls: tokens / 100 });
  const router_curve = { measure: 'correctness' as const, points: [point(0, 0.5, 900), point(0.05, 0.45, 400, true), point(1, 0.2, 100)] };
  it('puts each λ of a router eval on the chosen axes, cheapest first', () => {
    expect(routerCurvePoints({ router_curve }, 'tokens', 'correctness')).toEqual([
      { lambda: 1, routedWith: false, cost: 100, quality: 0.2 },
      { lambda: 0.05, routedWith: true, cost: 400, quality: 0.45 },
      { lambda: 0, routedWith: false, cost: 900, quality: 0.5 },
    ]);
    expect(routerCurvePoints({ router_curve }, 'llm_calls', 'em').map((p) => [p.cost, p.quality])).toEqual([[1, 0.1], [4, 0.225], [9, 0.25]]);
  });
  it('has none without a curve, or for correctness when the curve was measured on EM (an unjudged eval)', () => {
    expect(routerCurvePoints({}, 'tokens', 'em')).toEqual([]);
    expect(routerCurvePoints({ router_curve: { ...router_curve, measure: 'em' } }, 'tokens', 'correctness')).toEqual([]);
  });
});
