import { createPlan } from '@multihop/core';
import { analysisReward, planReward, rewriteReward, PLAN_REWARD_WEIGHTS } from './rewards';

describe('the Plan Agent reward', () => {
  const chain = createPlan(['Which county is Van Hook Township in?', 'What is the seat of [county from step 1]?']);

  it('scores a valid 2-hop chain that led to the gold answer on every component', () => {
    const reward = planReward({ plan: chain, goldHops: 2, executed: [{ status: 'yes' }, { status: 'no' }], prediction: 'Stanley', gold: ['Stanley'] });
    expect(reward.components).toEqual({ logic: 1, structure: 1, execution: 0.5, em: 1, efficiency: 1, placeholders: 1 });
    // 0.2·1 + 0.15·1 + 0.2·0.5 + 0.25·1 + 0.1·1 + 0.1·1
    expect(reward.total).toBeCloseTo(0.9, 6);
    expect(reward.weights).toEqual(PLAN_REWARD_WEIGHTS);
  });

  it('gives a single step for a 2-hop question no logic and half the efficiency', () => {
    const reward = planReward({ plan: createPlan(['What is the seat of the county where Van Hook Township is?']), goldHops: 2, executed: [{ status: 'yes' }], prediction: 'Ross', gold: ['Stanley'] });
    expect(reward.components).toEqual({ logic: 0, structure: 1, execution: 1, em: 0, efficiency: 0.5, placeholders: 1 });
    expect(reward.total).toBeCloseTo(0.15 + 0.2 + 0.05 + 0.1, 6);
  });

  it('takes placeholder validity and the chain away from a dangling placeholder', () => {
    const dangling = createPlan(['Who directed Inception?', 'Where was [director from step 3] born?']);
    const reward = planReward({ plan: dangling, goldHops: 2, executed: [], prediction: '', gold: ['London'] });
    expect(reward.components).toMatchObject({ placeholders: 0, logic: 0, structure: 1, execution: 0 });
    expect(reward.total).toBeCloseTo(0.15 + 0.1, 6);
  });

  it('scores structure 0 for a cycle or too many steps, and rewards one step for a one-hop question', () => {
    const cycle = createPlan([{ question: 'a [x from step 2]', dependsOn: ['2'] }, { question: 'b [y from step 1]', dependsOn: ['1'] }]);
    expect(planReward({ plan: cycle, executed: [], prediction: '', gold: ['x'] }).components['structure']).toBe(0);
    expect(planReward({ plan: chain, executed: [], prediction: '', gold: ['x'], maxSteps: 1 }).components['structure']).toBe(0);
    expect(planReward({ plan: createPlan(['Who wrote Dune?']), goldHops: 1, executed: [{ status: 'yes' }], prediction: 'Frank Herbert', gold: ['Frank Herbert'] }).total).toBeCloseTo(1, 6);
  });

  it('takes its weights from the caller', () => {
    const reward = planReward({ plan: chain, goldHops: 2, executed: [], prediction: 'Stanley', gold: ['Stanley'] }, { logic: 0, structure: 0, execution: 0, em: 1, efficiency: 0, placeholders: 0 });
    expect(reward.total).toBe(1);
  });
});

describe('the Analysis-Answer Agent reward', () => {
  const yes = (answer: string) => ({ status: 'yes', answer, analysis: 'passage 2 says so' });
  const no = { status: 'no', answer: '', analysis: 'nothing names the county seat' };

  it('is 0.25 judgment + 0.65 EM + 0.10 format when the evidence is sufficient', () => {
    expect(analysisReward({ output: yes('Stanley'), goldStatus: 'yes', goldAnswers: ['Stanley'] })).toMatchObject({ total: 1, components: { judgment: 1, em: 1, format: 1 } });
    expect(analysisReward({ output: yes('Ross'), goldStatus: 'yes', goldAnswers: ['Stanley'] }).total).toBeCloseTo(0.35, 6);
    expect(analysisReward({ output: no, goldStatus: 'yes', goldAnswers: ['Stanley'] }).total).toBeCloseTo(0.1, 6);
    // "yes" with no answer is malformed: judgment only.
    expect(analysisReward({ output: yes(''), goldStatus: 'yes', goldAnswers: ['Stanley'] }).total).toBeCloseTo(0.25, 6);
  });

  it('is 0.9 judgment + 0.1 format when the evidence is not sufficient', () => {
    expect(analysisReward({ output: no, goldStatus: 'no' })).toMatchObject({ total: 1, weights: { judgment: 0.9, format: 0.1 } });
    expect(analysisReward({ output: yes('Stanley'), goldStatus: 'no' }).total).toBeCloseTo(0.1, 6);
    expect(analysisReward({ output: undefined, goldStatus: 'no' }).total).toBe(0);
  });

  it('checks an intermediate answer against the gold passage text when no gold answer is known', () => {
    // MuSiQue train 2hop__334380_326459's supporting paragraph for its first hop.
    const groundingText = 'Black Hawk Township is located in Jefferson County, Iowa.';
    expect(analysisReward({ output: yes('Jefferson County'), goldStatus: 'yes', groundingText }).components['em']).toBe(1);
    expect(analysisReward({ output: yes('Lee County'), goldStatus: 'yes', groundingText }).components['em']).toBe(0);
  });
});

describe('the Rewrite Agent reward', () => {
  const output = { query: 'Mountrail County seat', strategy: 'entity-focus', keywords: ['Mountrail County', 'seat'] };

  it('is 0.9·√NDCG@k + 0.1 format', () => {
    const first = rewriteReward({ output, failedQuery: 'seat of the county', retrievedPassageIds: ['gold', 'x'], gold: ['gold'] });
    expect(first).toMatchObject({ total: 1, components: { sqrtNdcg: 1, ndcg: 1, format: 1 } });
    // Gold second after dedupe: NDCG = 1/log2(3) ≈ 0.63093, √ ≈ 0.79431.
    const second = rewriteReward({ output, failedQuery: 'seat of the county', retrievedPassageIds: ['x', 'x', 'gold', 'y'], gold: ['gold'] });
    expect(second.components['ndcg']).toBeCloseTo(0.63093, 4);
    expect(second.total).toBeCloseTo(0.9 * Math.sqrt(1 / Math.log2(3)) + 0.1, 5);
    expect(rewriteReward({ output, failedQuery: 'q', retrievedPassageIds: ['x'], gold: ['gold'] }).total).toBeCloseTo(0.1, 6);
  });

  it('gives no format credit to a repeated query, an unknown strategy or keywords missing from the query', () => {
    const score = (o: typeof output) => rewriteReward({ output: o, failedQuery: 'Mountrail County seat', retrievedPassageIds: [], gold: ['gold'] }).components['format'];
    expect(score(output)).toBe(0);
    expect(rewriteReward({ output: { ...output, strategy: 'guessing' }, failedQuery: 'q', retrievedPassageIds: [], gold: ['g'] }).components['format']).toBe(0);
    expect(rewriteReward({ output: { ...output, keywords: ['Stanley'] }, failedQuery: 'q', retrievedPassageIds: [], gold: ['g'] }).components['format']).toBe(0);
    expect(rewriteReward({ output: undefined, failedQuery: 'q', retrievedPassageIds: ['g'], gold: ['g'] }).total).toBe(0);
  });
});
