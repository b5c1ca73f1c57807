import { useMemo, useState } from 'react';
import type { StudioNodeInfo, StudioPrompt, StudioWorkflow } from '../api/client';
import { ChartView } from '../chart/ChartView';
import { edgeText } from '../chart/layout';
import type { ChartNode } from '../chart/types';
import type { Loaded } from '../data';
import { groupBy } from '../groupBy';
import { routeHash } from '../route';
import { SettingsTable } from './SettingsTable';

/** Workflows grouped by method; the selected one's chart, settings and, per node, its agent and prompts. */
export function WorkflowsPage({ workflows, selectedId }: { workflows: Loaded<StudioWorkflow[]>; selectedId: string | undefined }) {
  if (workflows.state === 'loading') return <p className="muted pad">Loading workflows…</p>;
  if (workflows.state === 'error') return <p className="error pad">Could not load the workflows: {workflows.message}</p>;
  const list = workflows.value;
  const selected = list.find((workflow) => workflow.id === selectedId) ?? list[0];
  return (
    <div className="workflows-page">
      <WorkflowList workflows={list} selectedId={selected?.id} />
      {selected ? <WorkflowDetail key={selected.id} workflow={selected} /> : <p className="muted pad">No workflows installed.</p>}
    </div>
  );
}

function WorkflowList({ workflows, selectedId }: { workflows: StudioWorkflow[]; selectedId: string | undefined }) {
  const groups = useMemo(() => groupBy(workflows, (workflow) => workflow.method.id), [workflows]);
  return (
    <nav className="workflow-list" aria-label="workflows">
      {groups.map(([method, members]) => (
        <section key={method} className="method-group">
          <h4 title={members[0]?.method.paper}>
            {method} <span className="muted">{members[0]?.method.family}</span>
          </h4>
          <ul>
            {members.map((workflow) => (
              <li key={workflow.id}>
                <a
                  href={routeHash('workflows', workflow.id)}
                  className={workflow.id === selectedId ? 'is-current' : undefined}
                  data-testid="workflow-link"
                  data-workflow-id={workflow.id}
                  title={workflow.title}
                >
                  {workflow.id}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}

function WorkflowDetail({ workflow }: { workflow: StudioWorkflow }) {
  // The page keys this by the workflow's id: another workflow starts with no node open.
  const [node, setNode] = useState<string | undefined>();
  const chartNode = workflow.chart.nodes.find((candidate) => candidate.id === node);
  return (
    <div className="workflow-detail" data-testid="workflow-detail" data-workflow-id={workflow.id}>
      <header className="workflow-head">
        <div>
          <h2>{workflow.title}</h2>
          <p className="muted">
            <code>{workflow.id}</code> · {workflow.engine} · {workflow.method.paper}
          </p>
        </div>
        <a className="button primary" href={routeHash('run', undefined, { workflow: workflow.id })} data-testid="workflow-run">
          Run this workflow
        </a>
      </header>
      <div className="workflow-body">
        <div className="workflow-chart">
          <ChartView chart={workflow.chart} selected={node} onNodeClick={(id) => setNode((current) => (current === id ? undefined : id))} maxHeight={760} />
          <p className="legend muted">
            Click a node for its agent and prompts. <span className="legend-dash">- - -</span> conditional · <span className="legend-thick">━</span> fan-out ·
            <span className="legend-diamond">◇</span> choice · <span>∥</span> parallel
          </p>
        </div>
        <aside className="workflow-side">
          {chartNode ? (
            <NodePanel node={chartNode} workflow={workflow} info={workflow.nodes[chartNode.id]} onClose={() => setNode(undefined)} />
          ) : (
            <>
              <h3>Settings</h3>
              <p className="muted small">The paper's defaults; the Run page and <code>--set {workflow.id}.key=value</code> override them.</p>
              <SettingsTable settings={workflow.settings} />
              <NodeIndex workflow={workflow} onPick={setNode} />
            </>
          )}
        </aside>
      </div>
    </div>
  );
}

function NodeIndex({ workflow, onPick }: { workflow: StudioWorkflow; onPick: (id: string) => void }) {
  const described = workflow.chart.nodes.filter((node) => workflow.nodes[node.id]);
  if (!described.length) return null;
  return (
    <>
      <h3>Agents</h3>
      <ul className="node-index">
        {described.map((node) => {
          const info = workflow.nodes[node.id];
          return (
            <li key={node.id}>
              <button type="button" className="link" onClick={() => onPick(node.id)}>
                {node.id}
              </button>
              {info?.agent ? <span className="muted"> · {info.agent}</span> : null}
              {info?.prompts.length ? <span className="muted"> · {info.prompts.length} prompt{info.prompts.length > 1 ? 's' : ''}</span> : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function NodePanel({ node, workflow, info, onClose }: { node: ChartNode; workflow: StudioWorkflow; info: StudioNodeInfo | undefined; onClose: () => void }) {
  const outgoing = workflow.chart.edges.filter((edge) => edge.from === node.id);
  return (
    <div className="node-panel" data-testid="node-panel" data-node-id={node.id}>
      <div className="panel-head">
        <h3>
          {node.id} <span className="tag">{node.kind}</span>
        </h3>
        <button type="button" className="close" onClick={onClose} aria-label="close">
          ×
        </button>
      </div>
      {node.label && node.label !== node.id ? <p className="muted">{node.label}</p> : null}
      {info?.agent ? (
        <p>
          Agent: <b data-testid="node-agent">{info.agent}</b>
        </p>
      ) : null}
      {info?.description ? <p data-testid="node-description">{info.description}</p> : null}
      {!info ? <p className="muted">No agent or prompt at this node: it routes or keeps state.</p> : null}
      {outgoing.length ? (
        <>
          <h4>Leaves to</h4>
          <ul className="edge-list">
            {outgoing.map((edge, i) => (
              <li key={i}>
                → <b>{edge.to}</b> {edgeText(edge) ? <span className="muted">{edgeText(edge)}</span> : null}
                {edge.kind && edge.kind !== 'always' ? <span className="tag">{edge.kind}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {info?.prompts.map((prompt) => <PromptView key={prompt.id} prompt={prompt} />)}
    </div>
  );
}

function PromptView({ prompt }: { prompt: StudioPrompt }) {
  return (
    <section className="prompt" data-testid="node-prompt" data-prompt-id={prompt.id}>
      <h4>
        {prompt.id} <span className="muted">v{prompt.version} · {prompt.role}</span>
      </h4>
      {prompt.description ? <p className="small">{prompt.description}</p> : null}
      {prompt.system ? (
        <>
          <div className="field-name">system</div>
          <pre className="prompt-text">{prompt.system}</pre>
        </>
      ) : null}
      <div className="field-name">template</div>
      <pre className="prompt-text">{prompt.template}</pre>
      <div className="field-name">
        reply <span className="tag">{prompt.reply === 'json' ? 'JSON object' : 'plain text'}</span>
      </div>
      {prompt.instructions ? <pre className="prompt-text">{prompt.instructions}</pre> : null}
      <details>
        <summary className="field-name">JSON schema of the parsed output</summary>
        <pre className="json">{JSON.stringify(prompt.schema, null, 2)}</pre>
      </details>
    </section>
  );
}

