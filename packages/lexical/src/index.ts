export { STOP_WORDS, tokens, stem, terms, idfTable, canonicalText, indexableText } from './text';
export { splitSentences, joinSentences } from './splitSentences';
export { capitalisedSpans, quotedTitles, dates, numbers, yearOf, coveredBy } from './entities';
export { decomposeQuestion, PERSON_NOUNS } from './decomposeQuestion';
export { LexicalReranker, type LexicalRerankerOptions } from './LexicalReranker';
