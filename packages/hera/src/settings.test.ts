import { createModel, createScriptedProvider } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { conformanceSample, overlapRetriever } from '@multihop/conformance';
import { manifest } from './manifest';
import { offlineHandlers } from './offline';
import { HERA_DEFAULTS } from './settings';
import { createHeraWorkflow, hera, heraNoLibrary, heraNoRope } from './workflows';

const entryOf = (id: string) => manifest.workflows.find((w) => w.id === id)!;

describe('HERA settings', () => {
  it('builds each variant by its own name too, as the other methods do (opera(), mmoaRag())', () => {
    expect([hera(), heraNoLibrary(), heraNoRope()].map((w) => w.id)).toEqual(['hera', 'hera-no-library', 'hera-no-rope']);
    expect(heraNoLibrary().chart().nodes.map((n) => n.id)).not.toContain('retrieve_experience');
    expect(() => heraNoLibrary({ maxExperiences: 3 })).toThrow(/^hera-no-library: no option "maxExperiences"/);
  });

  it('default to the paper’s settings (and the package’s for what the paper leaves open)', () => {
    expect(entryOf('hera').settings!.parse({})).toEqual(HERA_DEFAULTS);
    expect(entryOf('hera-no-rope').settings!.parse({})).toEqual(HERA_DEFAULTS);
    const { maxExperiences: _m, experienceRedundancy: _r, experienceCandidates: _c, experienceLibrary: _l, ...noLibrary } = HERA_DEFAULTS;
    expect(entryOf('hera-no-library').settings!.parse({})).toEqual(noLibrary);
  });

  it('refuse a value the workflow cannot use', () => {
    expect(entryOf('hera').settings!.safeParse({ topK: 0 }).success).toBe(false);
    expect(entryOf('hera').settings!.safeParse({ experienceRedundancy: 2 }).success).toBe(false);
  });

  it('take effect in the workflow the manifest builds', async () => {
    // A real HotpotQA train question and its own paragraphs, searched by term overlap (a settings check, no tuning).
    const [sample] = conformanceSample(1);
    const entry = entryOf('hera');
    const workflow = entry.create(entry.settings!.parse({ topK: 2 }));
    const result = await workflow.run(sample!.question, { model: offlineModel({ handlers: offlineHandlers }), retriever: overlapRetriever(sample!.passages) });
    const searches = result.trace.filter((e) => e.kind === 'retrieve');
    expect(searches.length).toBeGreaterThan(0);
    for (const s of searches) expect(s.data['k']).toBe(2);
  });

  it('apply RoPE-evolved prompts in hera and not in hera-no-rope', async () => {
    const [sample] = conformanceSample(1);
    const evolvedPrompts = [{ promptId: 'hera.answer', system: 'EVOLVED: answer with the entity only.', generation: 1 }];
    const systemOf = async (variant: 'full' | 'no-rope') => {
      const provider = createScriptedProvider({
        repeatLast: true,
        replies: {
          'hera-profiler': [JSON.stringify({ query_type: 'single-hop', complexity: 'easy', profile: 'one fact' })],
          'hera-orchestrator': [JSON.stringify({ execution_order: [{ step: 1, agent: 'Retriever' }, { step: 2, agent: 'Answer Generator', depends_on: [1] }] })],
          'hera-retriever': [JSON.stringify({ query: 'x' })],
          'hera-answerer': [JSON.stringify({ answer: 'y' })],
        },
      });
      await createHeraWorkflow(variant, { evolvedPrompts }).run(sample!.question, { model: createModel({ provider }), retriever: overlapRetriever(sample!.passages) });
      return provider.requests.find((r) => r.role === 'hera-answerer')!.messages[0]!.content;
    };
    expect(await systemOf('full')).toBe('EVOLVED: answer with the entity only.');
    expect(await systemOf('no-rope')).not.toContain('EVOLVED');
    // An evolved prompt for an id no agent calls (the role's name for the prompt's) is refused, naming the ids there are.
    expect(() => createHeraWorkflow('full', { evolvedPrompts: [{ promptId: 'hera.answerer', system: 'x', generation: 1 }] })).toThrow(/HERA evolved prompt "hera\.answerer" is no agent's prompt; the agents' prompt ids: .*hera\.answer\b/);
  });

  it('name the entry or field of a state file that is wrong, in either library form and in prompts.json', () => {
    const { mkdtempSync, writeFileSync } = require('node:fs') as typeof import('node:fs');
    const { join } = require('node:path') as typeof import('node:path');
    const { loadExperienceLibrary, loadEvolvedPrompts } = require('./experience') as typeof import('./experience');
    const dir = mkdtempSync(join(require('node:os').tmpdir(), 'multihop-hera-state-'));
    const good = { id: 'x1', profile: { query_type: 'bridge', complexity: 'easy' }, insight: 'Find the bridge first.', utility: 0, uses: 0 };
    const bad = { ...good, id: 'x2', profile: { query_type: 'bridgee', complexity: 'easy' } };
    writeFileSync(join(dir, 'loop.json'), JSON.stringify({ format: 'hera-experience-library/1', entries: [good, bad] }));
    writeFileSync(join(dir, 'bare.json'), JSON.stringify([good, bad]));
    expect(() => loadExperienceLibrary(join(dir, 'loop.json'))).toThrow(/loop\.json: entries\.1\.profile\.query_type: /);
    expect(() => loadExperienceLibrary(join(dir, 'bare.json'))).toThrow(/bare\.json: 1\.profile\.query_type: /);
    writeFileSync(join(dir, 'prompts.json'), JSON.stringify({ format: 'hera-prompts/1', prompts: [{ promptId: 'hera.answer', system: 's', generation: 0 }] }));
    expect(() => loadEvolvedPrompts(dir)).toThrow(/prompts\.json: prompts\.0\.generation: /);
  });
});
