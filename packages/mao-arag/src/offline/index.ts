import {
  maoAnswerGenerator,
  maoAnswerSummariser,
  maoDocumentSelector,
  maoParallelDecomposer,
  maoPlanner,
  maoQueryRewriter,
  maoSerialDecomposer,
  maoSerialReviser,
} from './handlers';

export { maoAnswerGenerator, maoAnswerSummariser, maoDocumentSelector, maoParallelDecomposer, maoPlanner, maoQueryRewriter, maoSerialDecomposer, maoSerialReviser };

/** The offline model's answers to MAO-ARAG's roles: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [
  maoPlanner,
  maoQueryRewriter,
  maoSerialDecomposer,
  maoSerialReviser,
  maoParallelDecomposer,
  maoDocumentSelector,
  maoAnswerGenerator,
  maoAnswerSummariser,
];
