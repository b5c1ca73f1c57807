import { par2Esc, par2Planner, par2QueryFormulator, par2Writer } from './handlers';

export { par2Esc, par2Planner, par2QueryFormulator, par2Writer };

/** The offline model's answers to PAR²-RAG's roles: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [par2Planner, par2Writer, par2Esc, par2QueryFormulator];
