export {
  NORMALIZATIONS,
  extractFinalAnswer,
  foldUnicodePunctuation,
  lenientNormalize,
  mmoaNormalize,
  normalizeAnswer,
  squadNormalize,
  type NormalizationName,
} from './normalize';
export { COUNTRY_DEMONYMS } from './demonyms';
export {
  answerAccuracy,
  exactMatch,
  f1Score,
  scoreAnswer,
  type AnswerMetricOptions,
  type AnswerScore,
  type GoldAnswers,
} from './answer';
export { allPassAtK, dedupeRanking, fullRecallAtK, ndcgAtK, recallAtK, retrievalScores, type RetrievalScores } from './retrieval';
export {
  isJudgedCorrect,
  judgeCorrectness,
  type JudgeDecision,
  type JudgeInput,
  type JudgeOptions,
  type JudgeVerdict,
} from './judge';
export {
  aggregateCost,
  percentile,
  summarizeLatency,
  type CostOptions,
  type CostSummary,
  type LatencySummary,
  type RoleCost,
} from './cost';
export {
  topologyMetrics,
  trajectoryFromSequence,
  transitionEntropy,
  transitionEntropySeries,
  type TopologyMetrics,
  type TrajectoryEdge,
  type TrajectoryGraph,
} from './topology';
export {
  bootstrapMean,
  comparePaired,
  formatPValue,
  mean,
  mulberry32,
  pairedBootstrap,
  pairedPermutationTest,
  type BootstrapOptions,
  type MeanEstimate,
  type PairedComparison,
  type PairedDifference,
  type PermutationOptions,
  type PermutationTest,
} from './statistics';
