import { LexicalReranker } from '@multihop/lexical';
import { retrieverConformance } from '../test/retrieverConformance';

// A reranked retriever is still a retriever: the same contract, with the offline reranker on top of BM25.
retrieverConformance('bm25', { reranker: new LexicalReranker() });
