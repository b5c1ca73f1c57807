export const ROUTER_PAPER = 'multihop’s own per-question router over the installed methods (no paper: MAO-ARAG §3 routes among executors inside one method; this routes among methods)';

export const ROUTER_TITLE = 'Router (predict each candidate’s quality and cost, run the best for the cost)';
