import { Annotation, END, Send, START } from '@langchain/langgraph';
import { readySteps } from '@multihop/core';
import { append, last, workflowGraph, type GraphRuntime } from '@multihop/engine-langgraph';
import type { Prompt } from '@multihop/prompts';
import type { AgentRuntime, AgentTask, StepSearch } from './agents/AgentTask';
import { emptyBoard, finalAnswer, mergeBoards, type Blackboard } from './agents/Blackboard';
import { answerGenerator } from './agents/AnswerGenerator';
import { concludeAgent } from './agents/ConcludeAgent';
import { contextValidator } from './agents/ContextValidator';
import { evidenceSelector } from './agents/EvidenceSelector';
import { characterizeQuery, repairTopology, sampleTopology } from './agents/Orchestrator';
import { queryDecomposer } from './agents/QueryDecomposer';
import { queryRewriter } from './agents/QueryRewriter';
import { retriever } from './agents/Retriever';
import type { QueryProfile, RetrievedExperience } from './experience';
import type { ExperienceSource } from './experienceStore';
import { AGENT_NODES, EXECUTION_AGENTS, FALLBACK_TOPOLOGY, toTopology, topologyProblems, type ExecutionAgent, type RawTopology, type Topology, type TopologyProblem } from './topology';

export interface HeraSettings {
  /** Passages per retrieval (the paper: top-5 per step for multi-step retrieval). */
  topK: number;
  /** Repair rounds for an invalid topology before the fallback runs (the issue: one). */
  maxRepairs: number;
  /** Most steps a topology may have. */
  maxSteps: number;
  /** Most sub-questions the Query Decomposer keeps. */
  maxSubQuestions: number;
  /** Most insights retrieved from the library for one query. */
  maxExperiences: number;
  /** Content-word overlap (Jaccard) at which a second insight is redundant with a kept one. */
  experienceRedundancy: number;
  /** SIMILAR by vector: the entries (of the query's type, complexity within one level) whose embedded profiles are this many nearest the query's compete by utility. */
  experienceCandidates: number;
}

/** Where the executed topology came from: the orchestrator, its repair round, or the fallback. */
export type TopologySource = 'orchestrator' | 'repair' | 'fallback';

/** One topology the orchestrator proposed, and why validation refused it (empty when it ran). */
export interface TopologyAttempt {
  source: Exclude<TopologySource, 'fallback'>;
  proposed: RawTopology;
  problems: TopologyProblem[];
}

const mergeOutputs = (a: Record<string, Blackboard>, b: Record<string, Blackboard>) => ({ ...a, ...b });

export const HeraState = Annotation.Root({
  question: Annotation<string>(),
  queryProfile: last<QueryProfile | null>(() => null),
  experiences: last<RetrievedExperience[]>(() => []),
  /** Entries in the library searched (0 without retrieval). */
  librarySize: last<number>(() => 0),
  /** The topology being validated, as the orchestrator wrote it. */
  proposed: last<RawTopology | null>(() => null),
  proposedBy: last<Exclude<TopologySource, 'fallback'>>(() => 'orchestrator'),
  attempts: append<TopologyAttempt>(),
  repairs: last<number>(() => 0),
  /** settings.maxRepairs, in state so the router reads it as it reads the rest. */
  maxRepairs: last<number>(() => 1),
  /** The topology that runs. */
  topology: last<Topology | null>(() => null),
  source: last<TopologySource>(() => 'orchestrator'),
  /** Each step's board, by step id. */
  outputs: Annotation<Record<string, Blackboard>>({ reducer: mergeOutputs, default: () => ({}) }),
  /** A step for its agent node (the `Send` payload). */
  task: last<AgentTask | null>(() => null),
  /** Step ids of each layer, in the order they ran. */
  layers: append<string[]>(),
  /** Each finished step's searches, by step id, until `dispatch` adds their passages to the run's evidence. */
  searches: Annotation<Record<string, StepSearch[]>>({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
  /** Steps whose searches are in the run's evidence. */
  searchesAdded: append<string>(),
  answer: last<string>(() => ''),
});

export type HeraStateType = typeof HeraState.State;
type State = HeraStateType;

/** What HERA's nodes need beside the run context. */
export interface HeraRuntime {
  /** The prompt an agent calls: RoPE's evolved version when the workflow applies evolved prompts, else the base. */
  promptFor<P extends Prompt<unknown>>(prompt: P): P;
  /** The experience library (Algorithm 4's E): in memory or the state directory's LanceDB table. */
  experiences: ExperienceSource;
  /** Group rollouts (Algorithm 2): the sample index given to the orchestrator (0 = greedy; k > 0 a sampled topology). */
  sample?: number;
  /** A topology to run instead of asking the orchestrator (TopologyMutation's candidates, RoPE's replays). */
  forcedTopology?: RawTopology;
}
type Runtime = GraphRuntime<HeraRuntime>;

/** The steps that can run now: every step they depend on has finished. */
function readyOf(state: State) {
  if (!state.topology) return [];
  const done = Object.fromEntries(Object.keys(state.outputs).map((id) => [id, 'done']));
  return readySteps({ steps: state.topology.execution_order.map((s) => ({ ...s, id: s.step, dependsOn: s.depends_on })) }, done);
}

/** Router after `validate`: a valid topology runs; an invalid one is repaired (maxRepairs rounds), then replaced by the fallback. */
function topologyCheck(state: State): 'execute' | 'repair' | 'fallback' {
  if (state.topology) return 'execute';
  return state.repairs < state.maxRepairs ? 'repair' : 'fallback';
}

/** Router after `dispatch`: another layer of ready steps, or the topology has run. */
function topologyProgress(state: State): 'next-layer' | 'complete' {
  return readyOf(state).length > 0 ? 'next-layer' : 'complete';
}

/** Fan-out from `layer`: one branch per ready step, to its agent's node; independent steps run together. */
function readyAgents(state: State): Send[] {
  const topology = state.topology!;
  return readyOf(state).map((s) => {
    const step = topology.execution_order.find((e) => e.step === s.id)!;
    const siblings = topology.execution_order.filter((e) => e.agent === step.agent && sameDeps(e.depends_on, step.depends_on));
    const input = step.depends_on.length === 0 ? emptyBoard() : mergeBoards(topology.execution_order.filter((e) => step.depends_on.includes(e.step)).map((e) => state.outputs[e.step]!));
    const task: AgentTask = { question: state.question, step, input, sibling: { index: siblings.indexOf(step), of: siblings.length } };
    return new Send(AGENT_NODES[step.agent], { task });
  });
}

const sameDeps = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

const AGENT_BODIES: Record<ExecutionAgent, (runtime: AgentRuntime, task: AgentTask) => Promise<Blackboard>> = {
  'Query Decomposer': queryDecomposer,
  Retriever: retriever,
  'Answer Generator': answerGenerator,
  'Query Rewriter': queryRewriter,
  'Evidence Selector': evidenceSelector,
  'Context Validator': contextValidator,
  'Conclude Agent': concludeAgent,
};

/**
 * The HERA inference graph (hera.md §3.1–3.2, Algorithm 4, and EXECUTE of Algorithm 1):
 *   profile → retrieve_experience → orchestrate → validate —execute→ dispatch
 *                                                          —repair→ repair → validate
 *                                                          —fallback→ fallback → dispatch
 *   dispatch —next-layer→ layer ⇒ one branch per ready step to its agent's node → dispatch
 *            —complete→ final
 * `withLibrary: false` (hera-no-library) leaves out `retrieve_experience`: the orchestrator
 * sees no experience.
 */
export function buildHeraGraph(settings: HeraSettings, options: { withLibrary: boolean }) {
  const profile = async (state: State, { ctx, promptFor }: Runtime) => {
    const profiled = await characterizeQuery(ctx, promptFor, state.question);
    ctx.decide('profile', { ...profiled });
    return { queryProfile: profiled };
  };

  const retrieveExperience = async (state: State, { ctx, experiences: source }: Runtime) => {
    const [librarySize, experiences] = await Promise.all([
      source.size(),
      source.retrieve(state.queryProfile!, { limit: settings.maxExperiences, redundancy: settings.experienceRedundancy, candidates: settings.experienceCandidates }),
    ]);
    ctx.decide('experiences', { library: librarySize, retrieved: experiences.map((e) => ({ id: e.id, utility: e.utility })) });
    return { experiences, librarySize };
  };

  const orchestrate = async (state: State, { ctx, promptFor, sample, forcedTopology }: Runtime) => {
    if (forcedTopology) {
      ctx.decide('topology-forced', { proposed: { ...forcedTopology } });
      return { proposed: forcedTopology, proposedBy: 'orchestrator' as const };
    }
    const proposed = await sampleTopology(ctx, promptFor, state.question, state.queryProfile!, state.experiences, sample);
    return { proposed, proposedBy: 'orchestrator' as const };
  };

  const validate = async (state: State, { ctx }: Runtime) => {
    const proposed = state.proposed ?? {};
    const problems = topologyProblems(proposed, settings.maxSteps);
    const attempt: TopologyAttempt = { source: state.proposedBy, proposed, problems };
    if (problems.length > 0) {
      ctx.decide('topology-rejected', { source: state.proposedBy, problems: problems.map((p) => p.message), steps: [...new Set(problems.flatMap((p) => (p.step ? [p.step] : [])))], proposed: { ...proposed } });
      return { attempts: [attempt], topology: null };
    }
    const topology = toTopology(proposed, settings.maxSteps);
    ctx.decide('topology', { source: state.proposedBy, topology: { ...topology }, experiences: state.experiences.map((e) => e.id) });
    return { attempts: [attempt], topology, source: state.proposedBy };
  };

  const repair = async (state: State, { ctx, promptFor }: Runtime) => {
    const last = state.attempts.at(-1)!;
    const proposed = await repairTopology(ctx, promptFor, state.question, state.queryProfile!, state.experiences, last.proposed, last.problems);
    return { proposed, proposedBy: 'repair' as const, repairs: state.repairs + 1 };
  };

  const fallback = async (state: State, { ctx }: Runtime) => {
    ctx.decide('fallback', { attempts: state.attempts.length, problems: state.attempts.at(-1)?.problems.map((p) => p.message) ?? [] });
    ctx.decide('topology', { source: 'fallback', topology: { ...FALLBACK_TOPOLOGY, query_profile: state.queryProfile?.profile ?? FALLBACK_TOPOLOGY.query_profile } });
    return { topology: FALLBACK_TOPOLOGY, source: 'fallback' as const };
  };

  const layer = async (state: State, { ctx }: Runtime) => {
    const steps = readyOf(state).map((s) => s.id);
    ctx.decide('layer', { steps, agents: steps.map((id) => state.topology!.execution_order.find((e) => e.step === id)!.agent) });
    return { layers: [steps] };
  };

  // The searches of the running layer's steps, per run, until dispatch adds them from the state. A
  // layer whose step fails (a budget stop) commits no writes, so its steps' searches are added
  // from here instead, before the run ends: what was retrieved stays in the run's evidence.
  const inFlight = new WeakMap<object, { steps: Map<string, StepSearch[]>; failed: boolean }>();
  const inFlightOf = (ctx: Runtime['ctx']) => {
    let layer = inFlight.get(ctx);
    if (!layer) inFlight.set(ctx, (layer = { steps: new Map(), failed: false }));
    return layer;
  };
  const addSearches = (ctx: Runtime['ctx'], steps: Array<[string, readonly StepSearch[]]>) => {
    for (const [id, searches] of steps) for (const search of searches) ctx.addEvidence(search.hits, { query: search.query, hop: Number(id) || 0 });
  };

  const agentNode = (agent: ExecutionAgent) => async (state: State, { ctx, promptFor }: Runtime) => {
    const task = state.task!;
    const searches: StepSearch[] = [];
    const layer = inFlightOf(ctx);
    layer.steps.set(task.step.step, searches);
    try {
      const board = await AGENT_BODIES[agent]({ ctx, promptFor, topK: settings.topK, maxSubQuestions: settings.maxSubQuestions, gathered: (s) => searches.push(s) }, task);
      // A sibling failed while this step ran: the layer's writes will be dropped, so its passages go in now.
      if (layer.failed) addSearches(ctx, [[task.step.step, searches]]);
      return { outputs: { [task.step.step]: board }, ...(searches.length > 0 ? { searches: { [task.step.step]: searches } } : {}) };
    } catch (error) {
      if (!layer.failed) addSearches(ctx, [...layer.steps].sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b)));
      layer.failed = true;
      layer.steps.clear();
      throw error;
    }
  };

  // After a layer: its steps' passages join the run's evidence in step order. The branches ran
  // in parallel, so adding them as each search returned would order the evidence by timing.
  const dispatch = async (state: State, { ctx }: Runtime) => {
    const added = new Set(state.searchesAdded);
    const steps = (state.topology?.execution_order ?? []).map((s) => s.step).filter((id) => state.searches[id] && !added.has(id));
    addSearches(ctx, steps.map((id) => [id, state.searches[id]!]));
    inFlightOf(ctx).steps.clear();
    return steps.length > 0 ? { searchesAdded: steps } : {};
  };

  const final = async (state: State, { ctx }: Runtime) => {
    const order = state.topology?.execution_order ?? [];
    const board = mergeBoards(order.map((s) => state.outputs[s.step]).filter((b): b is Blackboard => b !== undefined));
    const answer = finalAnswer(board);
    ctx.draft(answer);
    ctx.decide('answer', { answer, source: state.source, layers: state.layers });
    return { answer };
  };

  let graph = workflowGraph(HeraState)
    .withRuntime<HeraRuntime>()
    .node('profile', profile, { label: 'Orchestrator: CHARACTERIZEQUERY' });
  if (options.withLibrary) graph = graph.node('retrieve_experience', retrieveExperience, { label: 'Orchestrator: retrieve experience' });
  graph = graph
    .node('orchestrate', orchestrate, { label: 'Orchestrator: sample topology Γ' })
    .node('validate', validate, { label: 'validate topology' })
    .node('repair', repair, { label: 'Orchestrator: repair topology' })
    .node('fallback', fallback, { label: 'fallback topology (Retriever → Answer Generator)' })
    .node('dispatch', dispatch, { label: 'execute topology' })
    .node('layer', layer, { label: 'ready steps (parallel)' });
  for (const agent of EXECUTION_AGENTS) {
    graph = graph.node(AGENT_NODES[agent], agentNode(agent), { label: agent, enter: (state) => (state.task ? { step: state.task.step.step, agent: state.task.step.agent } : {}) });
  }
  graph = graph.node('final', final, { label: 'answer' }).edge(START, 'profile');
  if (options.withLibrary) graph = graph.edge('profile', 'retrieve_experience').edge('retrieve_experience', 'orchestrate');
  else graph = graph.edge('profile', 'orchestrate');
  graph = graph
    .edge('orchestrate', 'validate')
    .route('validate', topologyCheck, { execute: 'dispatch', repair: 'repair', fallback: 'fallback' })
    .edge('repair', 'validate')
    .edge('fallback', 'dispatch')
    .route('dispatch', topologyProgress, { 'next-layer': 'layer', complete: 'final' })
    .fanOut('layer', readyAgents, EXECUTION_AGENTS.map((a) => AGENT_NODES[a]));
  for (const agent of EXECUTION_AGENTS) graph = graph.edge(AGENT_NODES[agent], 'dispatch');
  return graph.edge('final', END).compile();
}
