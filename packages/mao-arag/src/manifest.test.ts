import { offlineModel } from '@multihop/offline-model';
import { describeMethodConformance } from '@multihop/conformance';
import { manifest } from './manifest';
import { offlineHandlers } from './offline';

describeMethodConformance(manifest, { handlers: offlineHandlers, model: offlineModel({ handlers: offlineHandlers }) });
