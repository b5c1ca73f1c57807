import { methodCatalog } from './methods';

/**
 * The studio shows, for a clicked chart node, the agent acting there and the prompts it calls,
 * from the method's manifest (`nodes`). Each method's conformance suite checks its table against
 * its charts (every setting variant) and against real runs; this checks the installed catalogue
 * as the runner serves it: every method declares its nodes, and every step, choice and parallel
 * node of every workflow's default chart has an entry.
 */
describe('chart nodes of every installed method', () => {
  it('every method declares its chart nodes', () => {
    const without = methodCatalog().methods.filter((m) => !m.nodes || Object.keys(m.nodes).length === 0).map((m) => m.id);
    expect({ withoutNodes: without }).toEqual({ withoutNodes: [] });
  });

  it('every step, choice and parallel node of every workflow’s chart has an entry, with a description', () => {
    const undescribed: string[] = [];
    for (const { method, entry } of methodCatalog().workflows) {
      for (const node of entry.create().chart().nodes) {
        // A `workflow` node runs another workflow whole (a router's candidate): its own method describes it.
        if (node.kind === 'start' || node.kind === 'end' || node.kind === 'workflow') continue;
        if (!method.nodes?.[node.id]?.description) undescribed.push(`${entry.id}: ${node.id} (${node.kind})`);
      }
    }
    expect({ undescribed }).toEqual({ undescribed: [] });
  });
});
