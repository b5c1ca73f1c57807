export { createOfflineProvider, offlineModel, builtinOfflineHandlers, type OfflineProviderOptions } from './createOfflineProvider';
export { defineOfflineHandler, type OfflineHandler, type OfflineAnswer } from './OfflineHandler';
// Reading a handler's variables with errors that name the role and the variable.
export { text as textVar, passages as passagesVar, strings as stringsVar } from './handlers/vars';
// The reader the handlers are built from, for method packages that add handlers (the words,
// stems, sentences and entities underneath are @multihop/lexical's).
export { readAnswer, rankSentences, coverage, type Reading, type ScoredSentence } from './lexical/reader';
// What the evidence lacks for a question, as searches (the sufficiency checks' follow-ups).
export { missingFacts, alreadySearched, searchKey, readByHops, type MissingFact, type ChainReading, type HopReading } from './lexical/missing';
export { classifyQuestion, type AnswerType, type QuestionShape, type Comparative } from './lexical/classifyQuestion';
export { comparedThings, namedEntities, settleComparison } from './lexical/compare';
