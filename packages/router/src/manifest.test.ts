import type { WorkflowContext } from '@multihop/core';
import { manifest as baselines } from '@multihop/baselines/manifest';
import { offlineHandlers as baselineHandlers } from '@multihop/baselines/offline';
import { offlineModel } from '@multihop/offline-model';
import { describeMethodConformance } from '@multihop/conformance';
import { manifest } from './manifest';

// The router calls no model itself (no prompts, no handlers); its candidates here are the
// baselines, the only other method this package's tests install, answered by their offline handlers.
const context: WorkflowContext = {
  workflowIds: () => baselines.workflows.map((w) => w.id),
  workflow: (id) => baselines.workflows.find((w) => w.id === id)!.create(),
};

describeMethodConformance(manifest, { handlers: [], model: offlineModel({ handlers: baselineHandlers }), context });
