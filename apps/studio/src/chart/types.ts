import type { Chart } from '../api/client';

export type ChartNode = Chart['nodes'][number];
export type ChartEdge = Chart['edges'][number];
export type { Chart };
