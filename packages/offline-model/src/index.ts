export { createOfflineProvider, offlineModel, offlineHandlers, type OfflineProviderOptions } from './createOfflineProvider';
export type { OfflineHandler } from './OfflineHandler';
// The lexical toolkit the handlers are built from, for method packages that add handlers.
export { readAnswer, rankSentences, coverage, type Reading, type ScoredSentence } from './lexical/reader';
export { classifyQuestion, type AnswerType, type QuestionShape, type Comparative } from './lexical/classifyQuestion';
export { capitalisedSpans, quotedTitles, dates, numbers, yearOf, coveredBy } from './lexical/entities';
export { tokens, terms, stem, splitSentences, idfTable, STOPWORDS } from './lexical/text';
