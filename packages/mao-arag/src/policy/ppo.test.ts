import { Matrix } from 'ml-matrix';
import { actionProbabilities, createPolicy } from './PlannerPolicy';
import { questionFeatures } from './features';
import { ppoUpdate, PPO_DEFAULTS } from './ppo';
import { SeededRandom } from './random';

describe('the PPO update of a linear-softmax head', () => {
  it('moves probability towards the action that earns more on a question', () => {
    const head = createPolicy().heads.sub; // AG, R+AG, DS+AG, R+DS+AG, DS+R+AG
    const features = questionFeatures('Who directed Maximum Overdrive?', 'sub');
    const before = actionProbabilities(head, new Matrix([features])).getRow(0);
    const logP = Math.log(before[1]!);
    // R+AG (action 1) earned 1, AG (action 0) earned 0: one sample each.
    const batch = [
      { features, action: 1, logProbability: logP, reward: 1 },
      { features, action: 0, logProbability: Math.log(before[0]!), reward: 0 },
    ];
    ppoUpdate(head, batch, { ...PPO_DEFAULTS, learningRate: 0.5, weightDecay: 0 });
    const after = actionProbabilities(head, new Matrix([features])).getRow(0);
    expect(after[1]!).toBeGreaterThan(before[1]!);
    expect(after[0]!).toBeLessThan(before[0]!);
  });

  it('stops pushing a sample whose ratio is already past 1 + ε (the clip)', () => {
    const head = createPolicy().heads.sub;
    const features = questionFeatures('Who directed Maximum Overdrive?', 'sub');
    const weights = JSON.stringify(head.weights);
    // π_old(R+AG) was 0.01, π now is 0.2: ratio 20, advantage +1 (one sample, no baseline yet).
    const { clippedShare } = ppoUpdate(head, [{ features, action: 1, logProbability: Math.log(0.01), reward: 1 }], { ...PPO_DEFAULTS, entropy: 0, weightDecay: 0 });
    expect(clippedShare).toBe(1);
    expect(JSON.stringify(head.weights)).toBe(weights);
  });

  it('learns a feature-conditioned choice on a bandit: yes-no questions pay off with AG alone, others with R+AG', () => {
    const head = createPolicy().heads.sub;
    const rng = new SeededRandom(3);
    const questions = ['Is Paris the capital of France?', 'Who wrote Hamlet?', 'Was Mozart born in Salzburg?', 'When was Hamlet written?'];
    for (let epoch = 0; epoch < 40; epoch++) {
      // On-policy: each question answered 8 times by an action sampled from π; AG pays on yes-no questions, R+AG on the others.
      const batch = questions.flatMap((q) => {
        const x = questionFeatures(q, 'sub');
        const p = actionProbabilities(head, new Matrix([x])).getRow(0);
        return Array.from({ length: 8 }, () => {
          let u = rng.next();
          const action = Math.max(0, p.findIndex((pi) => (u -= pi) < 0));
          const paying = /^(is|was)\b/i.test(q) ? 0 : 1;
          return { features: x, action, logProbability: Math.log(p[action]!), reward: action === paying ? 1 : 0 };
        });
      });
      ppoUpdate(head, batch, PPO_DEFAULTS);
    }
    const best = (q: string) => {
      const p = actionProbabilities(head, new Matrix([questionFeatures(q, 'sub')])).getRow(0);
      return head.actions[p.indexOf(Math.max(...p))];
    };
    expect(best('Is Paris the capital of France?')).toBe('AG');
    expect(best('Who wrote Hamlet?')).toBe('R+AG');
  });
});
